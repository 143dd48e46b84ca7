import { streamText } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PROVIDER_CASES } from "./fakes/providers.ts";
import { ModelTimeoutError, startModelCallDeadline } from "./model-call-deadline.ts";
import { classifyModelError } from "./provider-errors.ts";

afterEach(() => {
  vi.useRealTimers();
});

const reasonOf = (signal: AbortSignal) => signal.reason as ModelTimeoutError;

describe("a model call's deadline", () => {
  it("lets a call that keeps streaming run past the silence limit, and ends one that goes quiet", () => {
    vi.useFakeTimers();
    const deadline = startModelCallDeadline({ silenceMs: 100, totalMs: 10_000 });
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(90);
      deadline.touch();
    }
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(100);
    expect(deadline.signal.aborted).toBe(true);
    expect(reasonOf(deadline.signal)).toMatchObject({ kind: "silence", limitMs: 100 });
    deadline.dispose();
  });

  it("ends a call that streams steadily at its total limit", () => {
    vi.useFakeTimers();
    const deadline = startModelCallDeadline({ silenceMs: 100, totalMs: 500 });
    for (let elapsed = 0; elapsed < 500; elapsed += 50) {
      expect(deadline.signal.aborted).toBe(false);
      vi.advanceTimersByTime(50);
      deadline.touch();
    }
    expect(reasonOf(deadline.signal)).toMatchObject({ kind: "total", limitMs: 500 });
    expect(classifyModelError(deadline.signal.reason)).toMatchObject({
      code: "model-timeout",
      message: expect.stringContaining("timed out after 500 ms"),
    });
  });

  it("stops both timers once disposed", () => {
    vi.useFakeTimers();
    const deadline = startModelCallDeadline({ silenceMs: 100, totalMs: 200 });
    deadline.dispose();
    vi.advanceTimersByTime(1_000);
    expect(deadline.signal.aborted).toBe(false);
  });

  it.each(PROVIDER_CASES)(
    "ends a $name stream that stalls mid-answer, keeping what it said",
    async (provider) => {
      const fake = await provider.start();
      fake.enqueue({ kind: "stall", text: ["Let me ", "think"] });
      const deadline = startModelCallDeadline({ silenceMs: 1_500, totalMs: 60_000 });
      const started = Date.now();
      const result = streamText({
        model: provider.model(fake.baseURL, "test-key"),
        prompt: "hi",
        abortSignal: deadline.signal,
        maxRetries: 0,
      });
      let text = "";
      for await (const part of deadline.watch(result.fullStream))
        if (part.type === "text-delta") text += part.text;
      deadline.dispose();
      await fake.close();
      expect(text).toBe("Let me think");
      expect(reasonOf(deadline.signal)).toBeInstanceOf(ModelTimeoutError);
      expect(reasonOf(deadline.signal).kind).toBe("silence");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(classifyModelError(deadline.signal.reason)).toMatchObject({
        code: "model-timeout",
        message: "The model stopped answering (nothing for 1500 ms), so the request was ended; try again.",
      });
    },
  );
});
