import type { RunEvent } from "@coauthor/types";
import { encodeSseFrame } from "@coauthor/types/sse";
import { publishLive } from "./bus.ts";

function frame(runId: string, id: number, type: "tool-call" | "finish" | "error", value: string): string {
  const event: RunEvent =
    type === "tool-call"
      ? { type, runId, id, toolCallId: value, toolName: "scratch", input: {}, hookToken: value, deadline: 0 }
      : type === "finish"
        ? { type, runId, id, status: "done" }
        : { type, runId, id, code: value, message: value, recoverable: false };
  return encodeSseFrame(event);
}

/**
 * One "model turn" of the scratch loop: receives the whole conversation so far
 * (like the agent's callLlm step receives `messages`) and announces the next
 * tool call. Benchmark only.
 */
export async function scratchTurn(
  writable: WritableStream<string>,
  args: { runId: string; id: number; call: number; history: string[]; live: boolean },
): Promise<number> {
  "use step";
  const chunk = frame(args.runId, args.id, "tool-call", String(args.call));
  if (args.live) publishLive(args.runId, chunk);
  const writer = writable.getWriter();
  try {
    await writer.write(chunk);
  } finally {
    writer.releaseLock();
  }
  return args.id + 1;
}

/** The last frame of a scratch run; closes the stream. */
export async function scratchFinish(
  writable: WritableStream<string>,
  args: { runId: string; id: number; error?: string; live: boolean },
): Promise<number> {
  "use step";
  const chunk = args.error
    ? frame(args.runId, args.id, "error", args.error)
    : frame(args.runId, args.id, "finish", "");
  if (args.live) publishLive(args.runId, chunk);
  const writer = writable.getWriter();
  try {
    await writer.write(chunk);
    await writer.close();
  } finally {
    writer.releaseLock();
  }
  return args.id + 1;
}
