// The live path of a run's frames. A step hands each chunk of SSE frames to
// the open SSE responses of this process at once, beside the run's durable
// stream, which passes every chunk through Workflow DevKit's 10 ms flush
// timer (one chunk at a time). The durable stream stays the source of truth:
// responses merge both by event id, and reattach and replay read it alone.
// Kept on globalThis because Next bundles route handlers and steps apart.

import { log } from "../log.ts";

const KEY = Symbol.for("coauthor.live-frames");

type Listener = (chunk: string) => void;

function listeners(): Map<string, Set<Listener>> {
  const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, Set<Listener>> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** Hands a chunk of a run's frames to its live listeners in this process. */
export function publishLive(runId: string, chunk: string): void {
  const set = listeners().get(runId);
  if (!set) return;
  for (const listener of set) {
    try {
      listener(chunk);
    } catch (error) {
      // A response that cannot take a frame must not fail the step; it still has the durable stream.
      log.warn("live listener failed", { runId, error });
    }
  }
}

/** Follows a run's frames as steps in this process write them; returns the unsubscribe. */
export function subscribeLive(runId: string, listener: Listener): () => void {
  const all = listeners();
  let set = all.get(runId);
  if (!set) {
    set = new Set();
    all.set(runId, set);
  }
  set.add(listener);
  return () => {
    const current = all.get(runId);
    current?.delete(listener);
    if (current?.size === 0) all.delete(runId);
  };
}

/** How many runs have live listeners in this process (tests). */
export function liveRuns(): number {
  return listeners().size;
}
