import { randomUUID } from "node:crypto";
import { getWritable } from "workflow";
import { signHookToken } from "../../../hook-token.ts";
import { signingKeys } from "../../../secrets.ts";
import type { RequestedToolCall } from "../types.ts";
import { framesOf } from "./write-frames.ts";

// The token outlives the deadline a little, so a result posted at the last
// moment is still judged by the workflow's deadline, not by the token.
const TOKEN_MARGIN_SECONDS = 30;

/**
 * Signs a single-use hook token for one tool call and emits `tool-call`, so
 * the browser runs the tool. The hook itself was created by the workflow
 * before this step, so it is registered by the time the browser answers.
 */
export async function requestToolCall(args: {
  runId: string;
  firstId: number;
  userId: string;
  documentId: string;
  call: RequestedToolCall;
  deadlineMs: number;
}): Promise<number> {
  "use step";
  const { runId, call } = args;
  const now = Date.now();
  const hookToken = await signHookToken(
    {
      runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      userId: args.userId,
      documentId: args.documentId,
    },
    signingKeys().hookToken,
    { ttlSeconds: Math.ceil(args.deadlineMs / 1000) + TOKEN_MARGIN_SECONDS, jti: randomUUID(), now },
  );
  const writer = getWritable<string>().getWriter();
  try {
    await writer.write(
      framesOf(runId, args.firstId, [
        {
          type: "tool-call",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          hookToken,
          deadline: now + args.deadlineMs,
        },
      ]),
    );
  } finally {
    writer.releaseLock();
  }
  return args.firstId + 1;
}
