import { randomUUID } from "node:crypto";
import { signHookToken } from "../../../hook-token.ts";
import { hookTokenKey } from "../../../hook-token-key.ts";
import { log } from "../../../log.ts";
import type { RequestedToolCall, RunEventBody } from "../types.ts";

// A result after the deadline is refused by the token's `deadline` claim (410, to the millisecond);
// `exp` (whole seconds, a margin later) only bounds how long the token is worth checking at all.
const TOKEN_MARGIN_SECONDS = 30;

/** Who the tool call is for; the signed token names all of it. */
export interface ToolCallAudience {
  runId: string;
  userId: string;
  documentId: string;
  deadlineMs: number;
}

/** Builds a `tool-call` event with a freshly signed single-use hook token (step context: I/O). */
export async function toolCallEvent(
  call: RequestedToolCall,
  audience: ToolCallAudience,
): Promise<Extract<RunEventBody, { type: "tool-call" }>> {
  const now = Date.now();
  const deadline = now + audience.deadlineMs;
  const hookToken = await signHookToken(
    {
      runId: audience.runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      userId: audience.userId,
      documentId: audience.documentId,
    },
    hookTokenKey(),
    {
      ttlSeconds: Math.ceil(audience.deadlineMs / 1000) + TOKEN_MARGIN_SECONDS,
      jti: randomUUID(),
      now,
      deadline,
    },
  );
  log.info("tool call requested", {
    runId: audience.runId,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
  });
  return {
    type: "tool-call",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input,
    hookToken,
    deadline,
  };
}
