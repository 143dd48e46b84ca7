import type { RunEvent } from "@coauthor/types";
import { encodeSseFrame } from "@coauthor/types/sse";

function frame(
  runId: string,
  id: number,
  type: "text-delta" | "tool-call" | "finish",
  value: string,
): string {
  const event: RunEvent =
    type === "text-delta"
      ? { type, runId, id, messageId: "m", delta: value }
      : type === "tool-call"
        ? { type, runId, id, toolCallId: value, toolName: "naive", input: {}, hookToken: value, deadline: 0 }
        : { type, runId, id, status: "done" };
  return encodeSseFrame(event);
}

/** Writes one frame (naive reference: one step per frame). */
export async function emitNaiveFrame(
  writable: WritableStream<string>,
  runId: string,
  id: number,
  type: "text-delta" | "tool-call" | "finish",
  value: string,
  close = false,
): Promise<number> {
  "use step";
  const writer = writable.getWriter();
  try {
    await writer.write(frame(runId, id, type, value));
    if (close) await writer.close();
  } finally {
    writer.releaseLock();
  }
  return id + 1;
}

/** Writes `count` text deltas, one `write()` each, stamped with their emit time (naive reference). */
export async function emitNaiveDeltas(
  writable: WritableStream<string>,
  runId: string,
  firstId: number,
  count: number,
): Promise<number> {
  "use step";
  const writer = writable.getWriter();
  let id = firstId;
  try {
    for (let i = 0; i < count; i++) await writer.write(frame(runId, id++, "text-delta", `${Date.now()} `));
  } finally {
    writer.releaseLock();
  }
  return id;
}
