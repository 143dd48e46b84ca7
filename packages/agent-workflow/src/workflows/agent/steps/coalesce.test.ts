import { describe, expect, it } from "vitest";
import type { RunEventBody } from "../types.ts";
import { createDeltaCoalescer } from "./coalesce.ts";

describe("delta coalescer", () => {
  it("joins the deltas of one window into one write, per message and tool call, in order", async () => {
    const writes: RunEventBody[][] = [];
    const coalescer = createDeltaCoalescer(async (events) => {
      writes.push(events);
    }, 20);
    coalescer.push({ type: "text-delta", messageId: "m", delta: "Hel" });
    coalescer.push({ type: "text-delta", messageId: "m", delta: "lo" });
    coalescer.push({ type: "tool-input-delta", toolCallId: "c", toolName: "insertBlocks", delta: '{"mark' });
    coalescer.push({ type: "tool-input-delta", toolCallId: "c", toolName: "insertBlocks", delta: 'down":"' });
    coalescer.push({ type: "text-delta", messageId: "m", delta: "!" });
    await coalescer.flush();
    expect(writes).toEqual([
      [
        { type: "text-delta", messageId: "m", delta: "Hello" },
        { type: "tool-input-delta", toolCallId: "c", toolName: "insertBlocks", delta: '{"markdown":"' },
        { type: "text-delta", messageId: "m", delta: "!" },
      ],
    ]);
  });

  it("writes on its own once the window has passed", async () => {
    const writes: RunEventBody[][] = [];
    const coalescer = createDeltaCoalescer(async (events) => {
      writes.push(events);
    }, 10);
    coalescer.push({ type: "text-delta", messageId: "m", delta: "a" });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(writes).toHaveLength(1);
    coalescer.push({ type: "text-delta", messageId: "m", delta: "b" });
    await coalescer.flush();
    expect(writes.map((w) => w.map((e) => (e.type === "text-delta" ? e.delta : "")))).toEqual([["a"], ["b"]]);
  });
});
