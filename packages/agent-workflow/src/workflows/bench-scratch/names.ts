// Hook tokens and the in-process live bus of the scratch benchmark workflow.
// Imported by the workflow body: no imports here.

/** Hook token of the scratch workflow's `call`-th tool call. */
export function scratchHookToken(runId: string, call: number): string {
  return `coauthor:scratch:${runId}:${call}`;
}

/** Hook token that cancels a scratch run. */
export function scratchCancelToken(runId: string): string {
  return `coauthor:scratch-cancel:${runId}`;
}
