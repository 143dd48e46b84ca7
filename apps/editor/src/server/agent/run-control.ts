import { abortRun, cancelHookToken } from "@coauthor/agent-workflow/server";
import { getRun, resumeHook } from "workflow/api";
import { HookNotFoundError } from "workflow/errors";
import { finishRun } from "@/server/runs";

/**
 * Cancels a run: interrupts its in-flight model call in this process and
 * resumes its cancel hook, so the workflow writes `finish: cancelled` and
 * closes its stream. A run that has not suspended yet (no hook registered)
 * is cancelled in the engine instead; the SSE route then closes the stream.
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
