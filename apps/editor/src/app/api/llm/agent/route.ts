import { log } from "@coauthor/agent-workflow";
import { abortRun, agentWorkflow } from "@coauthor/agent-workflow/server";
import { agentRunRequestSchema } from "@coauthor/types";
import { getRun, start } from "workflow/api";
import { agentLimits } from "@/server/agent/limits";
import { recordRunEnd, superviseRun } from "@/server/agent/run-control";
import { acceptRunRequest } from "@/server/agent/run-request";
import { runEventResponse } from "@/server/agent/sse-response";
import { recordRun } from "@/server/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const END_WAIT_MS = 2_000;

/**
 * Starts an agent run and streams its events (SSE). Policy: a client that
 * goes away mid-run (tab closed, reload, fetch aborted) does not cancel it:
 * the run goes on and can be reattached (GET /api/llm/agent/:runId/stream).
 * Only Stop (DELETE /api/llm/agent/:runId) and a new prompt cancel a run.
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
  const recorded = recordRun({
    id: run.runId,
    documentId: input.documentId,
    userId: accepted.userId,
    prompt: input.prompt,
    model: modelId,
  });
  // The response subscribes to the run's live frames now, before anything else is awaited.
  const response = runEventResponse(run.runId, run.getReadable<string>(), {
    signal: request.signal,
    onEnd: () => {
      // Recorded now, not at the next supervision poll: a reload right away shows the exchange.
      recorded
        .then(() => recordRunEnd(run.runId, END_WAIT_MS))
        .catch((error: unknown) => log.error("could not record the end", { runId: run.runId, error }));
    },
  });
  try {
    await recorded;
  } catch (error) {
    // Without its row nobody may answer or follow the run: stop it rather than leave it working.
    abortRun(run.runId, "the run could not be recorded");
    await getRun(run.runId).cancel();
    throw error;
  }
  superviseRun(run.runId);
  log.info("run started", { runId: run.runId, documentId: input.documentId, model: modelId });
  return response;
}
