/**
 * Joins text deltas that arrive within `windowMs` into one write: a run's
 * stream carries at most ~94 chunks/s (Workflow DevKit flush timer), so one
 * write per token would throttle a fast model. Writes stay in order.
 */
export function createDeltaCoalescer(write: (text: string) => Promise<void>, windowMs: number) {
  let buffer = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();

  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!buffer) return chain;
    const text = buffer;
    buffer = "";
    chain = chain.then(() => write(text));
    return chain;
  };

  return {
    /** Adds a delta; it goes out with the others of its window. */
    push(delta: string) {
      buffer += delta;
      timer ??= setTimeout(() => {
        // A failed write rejects `chain`; the final flush() rethrows it.
        void flushNow().catch(() => undefined);
      }, windowMs);
    },
    /** Writes whatever is buffered and waits for every write so far. */
    flush: () => flushNow(),
  };
}
