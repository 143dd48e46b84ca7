import { getWritable } from "workflow";
import type { RequestedToolCall } from "../types.ts";
import { type ToolCallAudience, toolCallEvent } from "./tool-call-event.ts";
import { framesOf } from "./write-frames.ts";

/**
 * Emits `tool-call` (with a signed single-use hook token) for a tool call
 * that its model turn did not announce itself: the second and later calls of
 * a turn. The first call of a turn is announced by the LLM step.
 */
export async function requestToolCall(args: {
  firstId: number;
  call: RequestedToolCall;
  audience: ToolCallAudience;
}): Promise<number> {
  "use step";
  const event = await toolCallEvent(args.call, args.audience);
  const writer = getWritable<string>().getWriter();
  try {
    await writer.write(framesOf(args.audience.runId, args.firstId, [event]));
  } finally {
    writer.releaseLock();
  }
  return args.firstId + 1;
}
