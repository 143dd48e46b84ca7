// Workflow DevKit hook tokens of a run. Imported by the workflow body, so this
// file must stay free of imports: the workflow bundle is evaluated on every
// replay, and every dependency it pulls in costs time on each tool call.

/** Hook token of the naive benchmark workflow's `call`-th tool call. */
export function naiveHookToken(runId: string, call: number): string {
  return `coauthor:naive:${runId}:${call}`;
}

/** The abort reason when the whole-run time limit passed (not the writer's Stop). */
export const RUN_TIMEOUT_REASON = "run-timeout";
