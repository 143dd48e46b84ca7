import { agentWorkflow } from "@coauthor/agent-workflow/server";
import { agentRunRequestSchema } from "@coauthor/types";
import { start } from "workflow/api";
import { agentLimits } from "@/server/agent/limits";
import { cancelAgentRun } from "@/server/agent/run-control";
import { acceptRunRequest } from "@/server/agent/run-request";
import { runEventResponse } from "@/server/agent/sse-response";
import { finishRun, recordRun } from "@/server/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Starts an agent run and streams its events (SSE). Policy: when the client
 * goes away mid-run (tab closed, fetch aborted) the run is cancelled.
 */
export async function POST(request: Request): Promise<Response> {
  const accepted = await acceptRunRequest(request, agentRunRequestSchema, "agent");
  if (!accepted.ok) return accepted.response;
  const { input, modelId } = accepted;

  const run = await start(agentWorkflow, [
    {
      userId: accepted.userId,
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
    userId: accepted.userId,
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
