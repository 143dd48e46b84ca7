import { log } from "@coauthor/agent-workflow";
import { agentWorkflow, beginRunStart } from "@coauthor/agent-workflow/server";
import { agentRunRequestSchema } from "@coauthor/types";
import { start } from "workflow/api";
import { admitRun } from "@/server/agent/run-admission";
import { continuationOf } from "@/server/agent/run-continuation";
import { recordStreamEnd } from "@/server/agent/run-control";
import { acceptRunRequest } from "@/server/agent/run-request";
import { followAdmittedRun, workflowInputOf } from "@/server/agent/run-start";
import { runEventResponse } from "@/server/agent/sse-response";
import { DAMAGED_MESSAGE } from "@/server/collab/document-health";
import { apiError } from "@/server/http/errors";
import { protocolMismatch } from "@/server/http/protocol-version";
import { firstDeltaClock } from "@/server/observability/run-metrics";
import { findRecipe } from "@/server/recipes";
import { localWorldDir } from "@/server/workflow/world-purge";

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
  const outdated = protocolMismatch(request);
  if (outdated) return outdated;
  const clock = firstDeltaClock();
  const accepted = await acceptRunRequest(request, agentRunRequestSchema, "agent");
  if (!accepted.ok) return accepted.response;
  const { input, modelId } = accepted;
  // Its tools would run on a copy that never loads: refused until the owner restores it.
  if (accepted.access.damagedAt !== null) return apiError(409, "document_damaged", DAMAGED_MESSAGE);
  const continuation = input.continueRunId
    ? await continuationOf(input.continueRunId, accepted.userId, input.documentId)
    : undefined;
  if (continuation && !continuation.ok) return continuation.response;
  const recipe = input.recipeId
    ? await findRecipe(accepted.userId, input.documentId, input.recipeId)
    : undefined;
  if (recipe === null) {
    return apiError(
      404,
      "not_found:recipe",
      `recipeId: no recipe "${input.recipeId}" on this document (by id, or by a name only one recipe has)`,
    );
  }

  // A program (an access token) has no tab to run tools in: the server executes its run's calls.
  const background = input.background || accepted.caller === "token";
  // Admitted under the run caps, atomically; a refusal (429) starts and stores nothing.
  const admission = await admitRun(
    {
      userId: accepted.userId,
      documentId: input.documentId,
      prompt: input.prompt,
      model: modelId,
      editMode: input.editMode,
      executor: background ? "server" : "tab",
      threadId: null,
    },
    async () => {
      const workflowInput = workflowInputOf({
        userId: accepted.userId,
        documentId: input.documentId,
        prompt: input.prompt,
        messages: input.messages,
        modelId,
        selection: input.selection,
        continues: continuation?.continues,
        pipeline: recipe,
        // The run's first step runs in this process on the local world: its work begins here, while
        // the engine starts the run (run-start-early.ts).
        earlyStart: localWorldDir() !== undefined,
      });
      const run = await start(agentWorkflow, [workflowInput]);
      // The response subscribes to the run's live frames now, before anything else is awaited.
      const response = runEventResponse(run.runId, run.getReadable<string>(), {
        signal: request.signal,
        onFirstDelta: clock.firstDelta,
        onEnd: (end) => {
          // Recorded now, not at the next supervision poll: the next prompt and a reload right away
          // see the run as ended.
          recordStreamEnd(run.runId, end.type === "finish" ? end.status : undefined, END_WAIT_MS).catch(
            (error: unknown) => log.error("could not record the end", { runId: run.runId, error }),
          );
        },
      });
      // Begun before anything else is awaited: the engine cannot have delivered the step yet.
      if (workflowInput.earlyStart) beginRunStart(run.runId, workflowInput);
      return { runId: run.runId, response };
    },
  );
  if (!admission.ok) return admission.response;
  const { started: run } = admission;
  followAdmittedRun({ runId: run.runId, documentId: input.documentId, modelId });
  return run.response;
}
