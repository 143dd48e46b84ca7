import { agentStore } from "../../../agent-store.ts";
import { log } from "../../../log.ts";
import { runSignal } from "../../../run-control.ts";
import { RUN_TIMEOUT_REASON } from "../../../run-outcomes.ts";
import { onStop } from "../../../run-signals.ts";

// Stop reaches a step in this process through its signal, and from other instances through a run
// signal that has the stored status read at once; that status is also read now and then in case
// a signal was lost.
const STOP_POLL_MS = 5_000;

/**
 * One subscription for what ends a step's work early: the writer's Stop (this process's signal,
 * or the stored status seen from any instance), the run's time limit and, for a tool call, its
 * deadline. `signal` aborts on Stop or the run's time, its reason saying which; `stopped` on Stop
 * alone (the run's last words after its time ran out are still cut short by Stop); `until(at)`
 * also at a tool call's deadline (a `TimeoutError`).
 */
export function watchRun(runId: string, runDeadline: number) {
  const all = new AbortController();
  const stop = new AbortController();
  const abort = (controller: AbortController, reason: string) => {
    if (!controller.signal.aborted) controller.abort(new Error(reason));
  };
  const deadline = setTimeout(() => abort(all, RUN_TIMEOUT_REASON), Math.max(0, runDeadline - Date.now()));
  const checkStopped = () => {
    agentStore()
      .isStopped(runId)
      .then((stopped) => {
        if (!stopped) return;
        abort(stop, "stopped by the writer");
        abort(all, "stopped by the writer");
      })
      .catch((error: unknown) => log.warn("stop check failed", { runId, error }));
  };
  const poll = setInterval(checkStopped, STOP_POLL_MS);
  const unsubscribe = onStop(runId, checkStopped);
  const inProcess = runSignal(runId);
  const onAbort = () => {
    if (inProcess.reason instanceof Error && inProcess.reason.message !== RUN_TIMEOUT_REASON)
      abort(stop, inProcess.reason.message);
  };
  inProcess.addEventListener("abort", onAbort);
  if (inProcess.aborted) onAbort();
  const signal = AbortSignal.any([inProcess, all.signal]);
  return {
    signal,
    stopped: stop.signal,
    until: (at: number) => AbortSignal.any([signal, AbortSignal.timeout(Math.max(0, at - Date.now()))]),
    close() {
      clearTimeout(deadline);
      clearInterval(poll);
      unsubscribe();
      inProcess.removeEventListener("abort", onAbort);
    },
  };
}

export type RunWatch = ReturnType<typeof watchRun>;
