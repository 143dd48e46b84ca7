import { describe, expect, it } from "vitest";
import { deferredDurable } from "./deferred-durable.ts";

/** A writer of a stream that records what reaches it. */
function recordingWriter() {
  const chunks: string[] = [];
  const stream = new WritableStream<string>({ write: (chunk) => void chunks.push(chunk) });
  return { writer: stream.getWriter(), stream, chunks };
}

describe("a durable side waiting for its step", () => {
  it("holds every write until attached, then hands them over in order; each resolves only once written", async () => {
    const durable = deferredDurable();
    let firstDone = false;
    const first = durable.write("a;").then(() => {
      firstDone = true;
    });
    const second = durable.write("b;");
    await new Promise((tick) => setTimeout(tick, 10));
    expect(firstDone).toBe(false);
    const target = recordingWriter();
    durable.attach(target.writer);
    await Promise.all([first, second]);
    await durable.write("c;");
    expect(target.chunks).toEqual(["a;", "b;", "c;"]);
    // Released after its writes: the step's stream is free again.
    durable.releaseLock();
    await new Promise((tick) => setTimeout(tick, 0));
    expect(target.stream.locked).toBe(false);
  });

  it("fails every write, waiting or later, once abandoned", async () => {
    const durable = deferredDurable();
    const waiting = durable.write("a;");
    durable.abandon(new Error("no step"));
    await expect(waiting).rejects.toThrow("no step");
    await expect(durable.write("b;")).rejects.toThrow("no step");
    const target = recordingWriter();
    durable.attach(target.writer);
    await expect(durable.write("c;")).rejects.toThrow("no step");
    expect(target.chunks).toEqual([]);
  });
});
