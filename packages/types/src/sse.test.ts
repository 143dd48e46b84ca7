import { describe, expect, it } from "vitest";
import type { RunEvent } from "./events.ts";
import { createRunEventParser, encodeSseFrame, readRunEvents } from "./sse.ts";

const delta = (id: number, text: string): RunEvent => ({
  type: "text-delta",
  runId: "run_1",
  id,
  messageId: "m1",
  delta: text,
});

function collect(chunks: string[]) {
  const events: RunEvent[] = [];
  const invalid: string[] = [];
  const parser = createRunEventParser({
    onEvent: (event) => events.push(event),
    onInvalid: (error) => invalid.push(error.message),
  });
  for (const chunk of chunks) parser.feed(chunk);
  return { events, invalid };
}

describe("SSE framing", () => {
  it("writes id, event and one JSON data line per frame", () => {
    expect(encodeSseFrame(delta(3, "hi"))).toBe(
      'id: 3\nevent: text-delta\ndata: {"type":"text-delta","runId":"run_1","id":3,"messageId":"m1","delta":"hi"}\n\n',
    );
  });

  it("reassembles a frame split across chunks at every position", () => {
    const frame = encodeSseFrame(delta(1, "split me"));
    for (let cut = 1; cut < frame.length; cut++) {
      const { events } = collect([frame.slice(0, cut), frame.slice(cut)]);
      expect(events).toEqual([delta(1, "split me")]);
    }
  });

  it("reads several frames from one chunk in order", () => {
    const chunk = [delta(1, "a"), delta(2, "b"), delta(3, "c")].map(encodeSseFrame).join("");
    expect(collect([chunk]).events.map((e) => e.id)).toEqual([1, 2, 3]);
  });

  it("keeps newlines and forged framing inside a delta as text", () => {
    const nasty = "line one\n\nid: 99\nevent: finish\ndata: {}\n\n<script>alert(1)</script>";
    const frame = encodeSseFrame(delta(7, nasty));
    expect(frame.split("\n\n")).toHaveLength(2);
    const { events } = collect([frame]);
    expect(events).toEqual([delta(7, nasty)]);
  });

  it("reports frames that are not valid run events instead of passing them on", () => {
    const { events, invalid } = collect([
      "id: 1\nevent: text-delta\ndata: not json\n\n",
      'id: 2\nevent: text-delta\ndata: {"type":"text-delta","runId":"r"}\n\n',
      `id: 3\nevent: finish\ndata: ${JSON.stringify(delta(3, "x"))}\n\n`,
    ]);
    expect(events).toEqual([]);
    expect(invalid).toHaveLength(3);
  });

  it("streams events out of a byte stream", async () => {
    const bytes = new TextEncoder().encode(encodeSseFrame(delta(1, "é")) + encodeSseFrame(delta(2, "ü")));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // split inside a multi-byte character on purpose
        controller.enqueue(bytes.slice(0, 80));
        controller.enqueue(bytes.slice(80));
        controller.close();
      },
    });
    const seen: RunEvent[] = [];
    for await (const event of readRunEvents(body)) seen.push(event);
    expect(seen).toEqual([delta(1, "é"), delta(2, "ü")]);
  });
});
