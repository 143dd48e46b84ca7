import { agentWorkflow, defaultModelId, isAllowedModel } from "@coauthor/agent-workflow/server";
import { agentRunRequestSchema } from "@coauthor/types";
import { start } from "workflow/api";
import { requireDocument, requireUser } from "@/server/agent/authorize";
import { agentLimits } from "@/server/agent/limits";
import { cancelAgentRun } from "@/server/agent/run-control";
import { runEventResponse } from "@/server/agent/sse-response";
import { apiError, describeIssues, readJsonBody } from "@/server/http/errors";
import { finishRun, recordRun } from "@/server/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Starts an agent run and streams its events (SSE). Policy: when the client
 * goes away mid-run (tab closed, fetch aborted) the run is cancelled.
 */
export async function POST(request: Request): Promise<Response> {
  const user = await requireUser(request, "agent");
  if (!user.ok) return user.response;
  const body = await readJsonBody(request, "agent", MAX_BODY_BYTES);
  if (!body.ok) return body.response;
  const parsed = agentRunRequestSchema.safeParse(body.value);
  if (!parsed.success) return apiError(400, "bad_request:agent", describeIssues(parsed.error.issues));
  const input = parsed.data;
  const access = await requireDocument(user.userId, input.documentId);
  if (!access.ok) return access.response;
  const modelId = input.model ?? defaultModelId();
  if (!isAllowedModel(modelId))
    return apiError(400, "bad_request:model", `model "${modelId}" is not available`);

  const run = await start(agentWorkflow, [
    {
      userId: user.userId,
      documentId: input.documentId,
      prompt: input.prompt,
      messages: input.messages,
      modelId,
      selection: input.selection,
      limits: agentLimits(),
    },
  ]);
  await recordRun({
    id: run.runId,
    documentId: input.documentId,
    userId: user.userId,
    prompt: input.prompt,
    model: modelId,
  });
  console.info(`[agent] runId=${run.runId} started document=${input.documentId} model=${modelId}`);

  return runEventResponse(run.runId, run.getReadable<string>(), {
    signal: request.signal,
    onClientGone: () => {
      cancelAgentRun(run.runId, "client disconnected").catch((error: unknown) =>
        console.error(`[agent] runId=${run.runId} cancel after disconnect failed:`, error),
      );
    },
    onEnd: (kind) => {
      finishRun(run.runId, kind === "finish" ? "finished" : "failed").catch((error: unknown) =>
        console.error(`[agent] runId=${run.runId} could not record the end:`, error),
      );
    },
  });
}
