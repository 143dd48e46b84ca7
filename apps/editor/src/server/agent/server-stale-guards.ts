import { createStaleGuardMemory, type StaleGuardMemory } from "@coauthor/tools";

// The stale guard of the runs whose calls this instance's server executor runs (issue #39): what
// each run's model has seen, so a write to a block someone changed since the model read it is
// refused with "stale-target" as a tab's guard refuses it. Kept in memory, per run: a run that
// moves to another instance (or back to a tab) starts with an empty memory there, which refuses
// nothing until the model reads again — the guard's rule at the start of every run.

/** A run's memory goes after this long without a call (its run has ended, or moved elsewhere). */
const IDLE_MS = 30 * 60_000;

const memories = new Map<string, { memory: StaleGuardMemory; usedAt: number }>();

/** The guard memory of run `runId` on this instance. */
export function staleGuardOf(runId: string): StaleGuardMemory {
  const now = Date.now();
  for (const [id, entry] of memories) if (now - entry.usedAt > IDLE_MS) memories.delete(id);
  const entry = memories.get(runId) ?? { memory: createStaleGuardMemory(), usedAt: now };
  entry.usedAt = now;
  memories.set(runId, entry);
  return entry.memory;
}
