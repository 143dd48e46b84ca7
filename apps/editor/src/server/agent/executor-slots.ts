import { agentEnv } from "@coauthor/agent-workflow";
import pLimit, { type LimitFunction } from "p-limit";

// How many calls the server executor runs at once on this instance (MAX_BACKGROUND_RUNS, issue
// #39): each binds a headless editor to a copy of the live document (about 17 MB at 2,000 blocks,
// 86 MB at 10,000: `npm run bench -- --server-executor`), so twenty runs in the background must not
// bind twenty copies at once. A run's calls come one after another, so this bounds the runs the
// server executes at once; the rest wait their turn in order (FIFO), and say so while they wait.

let limit: { run: LimitFunction; size: number } | null = null;

function slots(): { run: LimitFunction; size: number } {
  if (limit === null) {
    const size = agentEnv().MAX_BACKGROUND_RUNS;
    limit = { run: pLimit(size), size };
  }
  return limit;
}

/**
 * Runs `work` when one of this instance's executor slots is free; `onQueued` hears first when it
 * has to wait (every slot is taken), with how many calls are ahead of it.
 */
export function withExecutorSlot<T>(work: () => Promise<T>, onQueued: (ahead: number) => void): Promise<T> {
  const { run, size } = slots();
  // Queued calls count in pendingCount until p-limit starts them (a microtask later).
  const before = run.activeCount + run.pendingCount;
  if (before >= size) onQueued(before - size);
  return run(work);
}
