import { afterEach, describe, expect, it, vi } from "vitest";
import { subscribeLive } from "./frames.ts";
import { LINGER_MS, openRunWriter } from "./run-writer.ts";

/** A durable stream that records each chunk it is given, and can hold its writes until released. */
function recordingStream() {
  const chunks: string[] = [];
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined;
  const stream = new WritableStream<string>({
    async write(chunk) {
      chunks.push(chunk);
      if (held) await held;
    },
  });
  return {
    stream,
    chunks,
    hold() {
      held = new Promise((done) => {
        release = done;
      });
    },
    release: () => release(),
  };
}

describe("a run's writer", () => {
  it("sends a round trip's frames as one durable chunk: lingering ones go with the next that does not linger", async () => {
    const durable = recordingStream();
    const live: string[] = [];
    const unsubscribe = subscribeLive("run-a", (chunk) => live.push(chunk));
    const writer = openRunWriter("run-a", durable.stream.getWriter());
    writer.send("result;", { linger: true });
    writer.send("delta;", { linger: true });
    // Every frame reaches this process's readers at once, lingering or not.
    expect(live).toEqual(["result;", "delta;"]);
    expect(writer.unconfirmed()).toBe("result;delta;");
    writer.send("call;");
    await writer.flush();
    expect(durable.chunks).toEqual(["result;delta;call;"]);
    unsubscribe();
    writer.release();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes a lingering frame on its own once nothing follows it", async () => {
    vi.useFakeTimers();
    const durable = recordingStream();
    const writer = openRunWriter("run-b", durable.stream.getWriter());
    writer.send("delta;", { linger: true });
    // No flush: the frame waits out its linger, and not a moment more.
    await vi.advanceTimersByTimeAsync(LINGER_MS - 1);
    expect(durable.chunks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(durable.chunks).toEqual(["delta;"]);
    await writer.flush();
    writer.release();
  });

  it("joins what is sent while a write is in flight, and keeps it unconfirmed until written", async () => {
    const durable = recordingStream();
    const writer = openRunWriter("run-c", durable.stream.getWriter());
    durable.hold();
    writer.send("one;");
    await Promise.resolve();
    writer.send("two;", { linger: true });
    writer.send("three;");
    expect(writer.unconfirmed()).toBe("one;two;three;");
    durable.release();
    await writer.flush();
    expect(durable.chunks).toEqual(["one;", "two;three;"]);
    writer.release();
  });
});
