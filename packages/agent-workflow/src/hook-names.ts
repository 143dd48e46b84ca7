// Names and small helpers the workflow body imports. This file must stay free of
// imports: the workflow bundle is evaluated on every replay, and every dependency
// it pulls in costs time.

/** Hook token of the naive benchmark workflow's `call`-th tool call. */
export function naiveHookToken(runId: string, call: number): string {
  return `coauthor:naive:${runId}:${call}`;
}

/** The abort reason when the whole-run time limit passed (not the writer's Stop). */
export const RUN_TIMEOUT_REASON = "run-timeout";

/** How a run ends when Stop or the time limit interrupts it (`reason`: the abort's reason). */
export function interruptedOutcome(reason: string | undefined, runTimeoutMs: number) {
  return reason === RUN_TIMEOUT_REASON
    ? { status: "timeout" as const, summary: `Stopped after ${runTimeoutMs / 1000} s (the run time limit).` }
    : { status: "cancelled" as const, summary: "Stopped by the writer." };
}
