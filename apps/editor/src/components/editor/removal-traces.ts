import type { RemovedRun } from "./agent-edit-changes";
import type { AgentLiveStore, PreviewPosition } from "./agent-live-store";

// Where an agent edit removed blocks, a brief mark ("3 paragraphs removed") stays for a few
// seconds, so the writer sees what went and where (agent-removal-traces.tsx draws it).

/** How long a trace stays; globals.css fades it out over its last second. */
export const TRACE_MS = 6_000;

/** Where a trace sits: after the block before the gap, else before the one after it, else at the start. */
function positionOf(run: RemovedRun): PreviewPosition {
  if (run.afterId !== null) return { at: "after", blockId: run.afterId };
  if (run.beforeId !== null) return { at: "before", blockId: run.beforeId };
  return { at: "start" };
}

/** Adds traces to a store and takes each away after TRACE_MS. */
export interface RemovalTraces {
  add(runs: RemovedRun[]): void;
  dispose(): void;
}

/** Traces kept in `store.traces`. */
export function createRemovalTraces(store: AgentLiveStore): RemovalTraces {
  let next = 0;
  const timers = new Set<number>();
  return {
    add(runs) {
      if (runs.length === 0) return;
      const added = runs.map((run) => ({ id: next++, position: positionOf(run), label: run.label }));
      const ids = new Set(added.map((trace) => trace.id));
      store.update({ traces: [...store.getSnapshot().traces, ...added] });
      const timer = window.setTimeout(() => {
        timers.delete(timer);
        store.update({ traces: store.getSnapshot().traces.filter((trace) => !ids.has(trace.id)) });
      }, TRACE_MS);
      timers.add(timer);
    },
    dispose() {
      for (const timer of timers) window.clearTimeout(timer);
      timers.clear();
      store.update({ traces: [] });
    },
  };
}
