import { encodeSseFrame } from "@coauthor/types/sse";
import { describe, expect, it } from "vitest";
import { createFrameSequencer } from "./sequencer.ts";

const frame = (id: number) =>
  encodeSseFrame({ type: "text-delta", runId: "r", id, at: 0, messageId: "m", delta: `d${id}` });
const chunk = (...ids: number[]) => ids.map(frame).join("");
const idsOf = (out: string[]) =>
  out
    .join("")
    .match(/^id: \d+$/gm)
    ?.map((line) => Number(line.slice(4))) ?? [];

function sequencer(fromId = 0) {
  const out: string[] = [];
  return { out, seq: createFrameSequencer(fromId, (frames) => out.push(frames)) };
}

describe("createFrameSequencer", () => {
  it("lets live frames out at once when they continue the sequence", () => {
    const { out, seq } = sequencer();
    seq.live(chunk(0, 1));
    seq.live(chunk(2));
    expect(idsOf(out)).toEqual([0, 1, 2]);
    expect(out).toHaveLength(2);
  });

  it("sends each id once when the durable stream repeats what came live", () => {
    const { out, seq } = sequencer();
    seq.live(chunk(0, 1, 2));
    seq.durable(chunk(0, 1));
    seq.durable(chunk(2, 3));
    seq.live(chunk(3, 4));
    expect(idsOf(out)).toEqual([0, 1, 2, 3, 4]);
  });

  it("holds live frames that arrive before the frames the response missed, then releases them in order", () => {
    const { out, seq } = sequencer();
    seq.live(chunk(2, 3));
    expect(out).toEqual([]);
    seq.durable(chunk(0, 1));
    expect(idsOf(out)).toEqual([0, 1, 2, 3]);
    seq.durable(chunk(2, 3));
    expect(idsOf(out)).toEqual([0, 1, 2, 3]);
  });

  it("starts at a reattach offset and skips everything before it", () => {
    const { out, seq } = sequencer(5);
    seq.durable(chunk(3, 4, 5));
    seq.live(chunk(6));
    expect(idsOf(out)).toEqual([5, 6]);
    expect(seq.next()).toBe(7);
  });

  it("moves past a gap in the durable stream instead of waiting for it forever", () => {
    const { out, seq } = sequencer();
    seq.live(chunk(4));
    seq.durable(chunk(0, 2));
    expect(idsOf(out)).toEqual([0, 2]);
    seq.durable(chunk(3));
    expect(idsOf(out)).toEqual([0, 2, 3, 4]);
  });
});
