import type { RunEventBody } from "../types.ts";

type DeltaEvent = Extract<RunEventBody, { type: "text-delta" | "tool-input-delta" }>;

function sameStream(a: DeltaEvent, b: DeltaEvent): boolean {
  if (a.type === "text-delta" && b.type === "text-delta") return a.messageId === b.messageId;
  if (a.type === "tool-input-delta" && b.type === "tool-input-delta") return a.toolCallId === b.toolCallId;
  return false;
}

/**
 * Writes a turn's first delta at once, then joins the deltas that arrive
 * within `windowMs` of a write into one write at the window's end: a run's
 * stream carries at most ~94 chunks/s (Workflow DevKit flush timer), so one
 * write per token would throttle a fast model, while the reader should not
 * wait a window for the first word. After a quiet window the next delta goes
 * at once again. Consecutive deltas of the same message or tool call become
 * one event; order is kept.
 */
export function createDeltaCoalescer(write: (events: RunEventBody[]) => Promise<void>, windowMs: number) {
  let pending: DeltaEvent[] = [];
  // Open while a write was made less than `windowMs` ago: deltas wait for its end.
  let window: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();

  const writePending = () => {
    if (pending.length === 0) return chain;
    const events = pending;
    pending = [];
    chain = chain.then(() => write(events));
    return chain;
  };

  /** Writes what is pending and holds the next deltas for a window. */
  const writeAndWait = () => {
    // A failed write rejects `chain`; the final flush() rethrows it.
    void writePending().catch(() => undefined);
    window = setTimeout(() => {
      window = undefined;
      if (pending.length > 0) writeAndWait();
    }, windowMs);
  };

  return {
    /** Adds a delta: written at once after a quiet window, else with the others of the window. */
    push(event: DeltaEvent) {
      const last = pending.at(-1);
      if (last && sameStream(last, event)) last.delta += event.delta;
      else pending.push({ ...event });
      if (!window) writeAndWait();
    },
    /** Writes whatever is buffered and waits for every write so far. */
    flush: () => {
      clearTimeout(window);
      window = undefined;
      return writePending();
    },
  };
}
