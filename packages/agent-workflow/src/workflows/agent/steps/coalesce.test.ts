import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunEventBody } from "../types.ts";
import { createDeltaCoalescer } from "./coalesce.ts";

const WINDOW_MS = 20;

/** A coalescer whose writes are kept, each as the deltas it carried (text and tool input alike). */
function recorded() {
  const writes: string[][] = [];
  const coalescer = createDeltaCoalescer(async (events) => {
    writes.push(events.map((event) => ("delta" in event ? event.delta : "")));
  }, WINDOW_MS);
  const text = (delta: string) => coalescer.push({ type: "text-delta", messageId: "m", delta });
  return { writes, coalescer, text };
}

describe("delta coalescer", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes the first delta at once and joins the window's next ones into one write, per message and tool call, in order", async () => {
    const writes: RunEventBody[][] = [];
    const coalescer = createDeltaCoalescer(async (events) => {
      writes.push(events);
    }, WINDOW_MS);
    coalescer.push({ type: "text-delta", messageId: "m", delta: "He" });
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toEqual([[{ type: "text-delta", messageId: "m", delta: "He" }]]);
    coalescer.push({ type: "text-delta", messageId: "m", delta: "l" });
    coalescer.push({ type: "text-delta", messageId: "m", delta: "lo" });
    coalescer.push({ type: "tool-input-delta", toolCallId: "c", toolName: "insertBlocks", delta: '{"mark' });
    coalescer.push({ type: "tool-input-delta", toolCallId: "c", toolName: "insertBlocks", delta: 'down":"' });
    coalescer.push({ type: "text-delta", messageId: "m", delta: "!" });
    await vi.advanceTimersByTimeAsync(WINDOW_MS - 1);
    expect(writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes[1]).toEqual([
      { type: "text-delta", messageId: "m", delta: "llo" },
      { type: "tool-input-delta", toolCallId: "c", toolName: "insertBlocks", delta: '{"markdown":"' },
      { type: "text-delta", messageId: "m", delta: "!" },
    ]);
  });

  it("writes at most once a window while deltas keep coming, and at once again after a quiet window", async () => {
    const { writes, text } = recorded();
    text("a");
    for (const delta of ["b", "c", "d"]) {
      await vi.advanceTimersByTimeAsync(WINDOW_MS / 2);
      text(delta);
    }
    // a at 0; b (10) waits for the window's end at 20; c (20) and d (30) for the next one's, at 40.
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(writes).toEqual([["a"], ["b"], ["cd"]]);
    // The window after that one saw nothing: it closes, and the next delta goes at once.
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    text("e");
    await vi.advanceTimersByTimeAsync(0);
    expect(writes.at(-1)).toEqual(["e"]);
  });

  it("flush writes what waits for the window's end, and waits for every write", async () => {
    const { writes, coalescer, text } = recorded();
    text("a");
    text("b");
    await coalescer.flush();
    expect(writes).toEqual([["a"], ["b"]]);
    await vi.advanceTimersByTimeAsync(WINDOW_MS * 2);
    expect(writes).toHaveLength(2);
  });
});
