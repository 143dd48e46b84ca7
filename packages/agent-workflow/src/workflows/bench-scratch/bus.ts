// Benchmark experiment: a live path beside the durable stream. Steps run in the
// app's own process on the local world, so a step can hand a frame straight to
// the SSE response that is waiting for it; the durable stream still carries it
// (reattach, replay) and the reader drops the copy it already has by frame id.

type Listener = (chunk: string) => void;

const key = Symbol.for("coauthor.bench.liveBus");
type Holder = { [key]?: Map<string, Set<Listener>> };

function listeners(): Map<string, Set<Listener>> {
  const holder = globalThis as Holder;
  holder[key] ??= new Map();
  return holder[key];
}

/** Hands `chunk` to every live reader of `runId` in this process. */
export function publishLive(runId: string, chunk: string): void {
  for (const listener of listeners().get(runId) ?? []) listener(chunk);
}

/** Subscribes to the live frames of `runId`; returns the unsubscribe function. */
export function subscribeLive(runId: string, listener: Listener): () => void {
  const map = listeners();
  const set = map.get(runId) ?? new Set<Listener>();
  set.add(listener);
  map.set(runId, set);
  return () => {
    set.delete(listener);
    if (set.size === 0) map.delete(runId);
  };
}
