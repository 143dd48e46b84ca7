// Free of imports: the workflow body imports it (see ../bench-naive/hook-token-name.ts).

/** Hook token the peer's browser-side tool waits on: one per tool call, named by its call id. */
export function peerHookToken(runId: string, toolCallId: string): string {
  return `coauthor:peer:${runId}:${toolCallId}`;
}
