import { log } from "@coauthor/agent-workflow";
import { abortRun, cancelHookToken } from "@coauthor/agent-workflow/server";
import { getRun, resumeHook } from "workflow/api";
import { HookNotFoundError, WorkflowRunNotFoundError } from "workflow/errors";
import { recordRunOutcome } from "@/server/run-history";
import { finishRun } from "@/server/runs";

const SUPERVISE_POLL_MS = 1_000;
const SUPERVISED = Symbol.for("coauthor.supervised-runs");

/**
 * Cancels a run: interrupts its in-flight model call in this process and
 * resumes its cancel hook, so the workflow writes `finish: cancelled` and
 * closes its stream. A run that has not suspended yet (no hook registered)
 * is cancelled in the engine instead; the SSE route then closes the stream.
 * Only Stop and a new prompt call this: a client that goes away does not.
 */
export async function cancelAgentRun(runId: string, reason: string): Promise<void> {
  abortRun(runId, reason);
  await finishRun(runId, "cancelled");
  try {
    await resumeHook(cancelHookToken(runId), { reason });
  } catch (error) {
    if (!HookNotFoundError.is(error)) throw error;
    const status = await getRun(runId).status;
    if (status === "running" || status === "pending") await getRun(runId).cancel();
  }
}

/** The stored status for an ended workflow run (`null` while it still runs). */
export async function endedStatus(runId: string): Promise<"finished" | "failed" | "cancelled" | null> {
  const run = getRun(runId);
  let status: string;
  try {
    status = await run.status;
  } catch (error) {
    // The engine lost the run (its data folder was emptied): it can never finish.
    if (WorkflowRunNotFoundError.is(error)) return "failed";
    throw error;
  }
  if (status === "cancelled") return "cancelled";
  if (status === "failed") return "failed";
  if (status !== "completed") return null;
  const outcome: unknown = await run.returnValue;
  if (typeof outcome === "object" && outcome !== null && "status" in outcome) {
    if (outcome.status === "error") return "failed";
    if (outcome.status === "cancelled") return "cancelled";
  }
  return "finished";
}

function supervised(): Set<string> {
  const holder = globalThis as typeof globalThis & { [SUPERVISED]?: Set<string> };
  holder[SUPERVISED] ??= new Set();
  return holder[SUPERVISED];
}

/**
 * Records a run's end in the database whoever watches it: runs outlive their
 * client (a closed tab does not cancel), so the end cannot rely on an open
 * SSE response. Idempotent per process; the first recorded end wins.
 */
export function superviseRun(runId: string): void {
  const runs = supervised();
  if (runs.has(runId)) return;
  runs.add(runId);
  const timer = setInterval(() => {
    endedStatus(runId)
      .then(async (status) => {
        if (status === null) return;
        clearInterval(timer);
        runs.delete(runId);
        await finishRun(runId, status);
        // Tool calls, tokens and the exchange for the stored conversation.
        await recordRunOutcome(runId);
      })
      .catch((error: unknown) => log.error("supervision failed", { runId, error }));
  }, SUPERVISE_POLL_MS);
}
