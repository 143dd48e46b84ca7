// A model call is bounded two ways, not by one short flat limit: reasoning
// models think for minutes before their first word, so a flat 30 s ends good
// calls, while a stream that stalls mid-answer should end well before a
// generous total. So: silence (no chunk for `silenceMs`) and a total (`totalMs`).

/** Why a model call was ended by its deadline. */
export class ModelTimeoutError extends Error {
  readonly kind: "silence" | "total";
  readonly limitMs: number;

  constructor(kind: "silence" | "total", limitMs: number) {
    super(
      kind === "silence"
        ? `model sent nothing for ${limitMs} ms`
        : `model step timed out after ${limitMs} ms`,
    );
    this.name = "ModelTimeoutError";
    this.kind = kind;
    this.limitMs = limitMs;
  }
}

/** A running deadline: `signal` aborts (reason: a ModelTimeoutError) on silence or at the total. */
export interface ModelCallDeadline {
  signal: AbortSignal;
  /** Something arrived: restarts the silence timer. */
  touch: () => void;
  /** Wraps a stream: each part that arrives restarts the silence timer. */
  watch: <T>(stream: AsyncIterable<T>) => AsyncIterable<T>;
  /** Stops both timers (the call ended). */
  dispose: () => void;
}

/** Starts the deadline of one model call; the silence timer runs from now (a first chunk counts). */
export function startModelCallDeadline(limits: { silenceMs: number; totalMs: number }): ModelCallDeadline {
  const controller = new AbortController();
  const end = (kind: "silence" | "total", ms: number) => () =>
    controller.abort(new ModelTimeoutError(kind, ms));
  const total = setTimeout(end("total", limits.totalMs), limits.totalMs);
  let silence = setTimeout(end("silence", limits.silenceMs), limits.silenceMs);
  const touch = () => {
    if (controller.signal.aborted) return;
    clearTimeout(silence);
    silence = setTimeout(end("silence", limits.silenceMs), limits.silenceMs);
  };
  const dispose = () => {
    clearTimeout(total);
    clearTimeout(silence);
  };
  return {
    signal: controller.signal,
    touch,
    dispose,
    watch: async function* <T>(stream: AsyncIterable<T>) {
      for await (const part of stream) {
        touch();
        yield part;
      }
    },
  };
}
