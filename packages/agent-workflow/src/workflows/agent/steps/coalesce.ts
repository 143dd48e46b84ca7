import type { RunEventBody } from "../types.ts";

type DeltaEvent = Extract<RunEventBody, { type: "text-delta" | "tool-input-delta" }>;

function sameStream(a: DeltaEvent, b: DeltaEvent): boolean {
  if (a.type === "text-delta" && b.type === "text-delta") return a.messageId === b.messageId;
  if (a.type === "tool-input-delta" && b.type === "tool-input-delta") return a.toolCallId === b.toolCallId;
  return false;
}

/**
 * Joins the deltas that arrive within `windowMs` into one write: a run's
 * stream carries at most ~94 chunks/s (Workflow DevKit flush timer), so one
 * write per token would throttle a fast model. Consecutive deltas of the same
 * message or tool call become one event; order is kept.
 */
export function createDeltaCoalescer(write: (events: RunEventBody[]) => Promise<void>, windowMs: number) {
  let pending: DeltaEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();

  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return chain;
    const events = pending;
    pending = [];
    chain = chain.then(() => write(events));
    return chain;
  };

  return {
    /** Adds a delta; it goes out with the others of its window. */
    push(event: DeltaEvent) {
      const last = pending.at(-1);
      if (last && sameStream(last, event)) last.delta += event.delta;
      else pending.push({ ...event });
      timer ??= setTimeout(() => {
        // A failed write rejects `chain`; the final flush() rethrows it.
        void flushNow().catch(() => undefined);
      }, windowMs);
    },
    /** Writes whatever is buffered and waits for every write so far. */
    flush: () => flushNow(),
  };
}
