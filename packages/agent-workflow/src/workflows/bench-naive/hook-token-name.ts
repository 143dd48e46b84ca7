// Free of imports: the workflow body imports it (see run-outcomes.ts).

/** Hook token of the naive benchmark workflow's `call`-th tool call (one hook per call). */
export function naiveHookToken(runId: string, call: number): string {
  return `coauthor:naive:${runId}:${call}`;
}
