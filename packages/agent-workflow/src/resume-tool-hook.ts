import { getRun, resumeHook } from "workflow/api";
import { HookNotFoundError } from "workflow/errors";
import { disarmToolDeadline } from "./deadlines.ts";
import { toolHookToken } from "./hook-names.ts";

// The LLM step announces a tool call before the workflow has registered its
// hook (that happens when the workflow next suspends, a few ms later), so a
// fast browser can answer first: wait for the hook while the run is alive.
const REGISTRATION_WAIT_MS = 3_000;
const POLL_MS = 10;

/** Resumes a tool call's hook; false when the run is no longer waiting for it. */
export async function resumeToolHook(runId: string, toolCallId: string, result: unknown): Promise<boolean> {
  const token = toolHookToken(runId, toolCallId);
  // The local world still accepts a resume for a hook of a run that just
  // ended (the payload goes nowhere): only a live run can take a result.
  if (!isLive(await getRun(runId).status)) return false;
  const deadline = Date.now() + REGISTRATION_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await resumeHook(token, { toolCallId, result });
      disarmToolDeadline(runId, toolCallId);
      return true;
    } catch (error) {
      if (!HookNotFoundError.is(error)) throw error;
    }
    if (Date.now() >= deadline) return false;
    if (attempt % 10 === 9) {
      if (!isLive(await getRun(runId).status)) return false;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function isLive(status: string): boolean {
  return status === "running" || status === "pending";
}
