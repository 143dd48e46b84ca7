// Free of imports: the workflow body imports it (as the naive loop's hook-token-name.ts in @coauthor/agent-workflow).

/** Hook token the peer's browser-side tool waits on: one per tool call, named by its call id. */
export function peerHookToken(runId: string, toolCallId: string): string {
  return `coauthor:peer:${runId}:${toolCallId}`;
}
