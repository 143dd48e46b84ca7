import { log } from "@coauthor/agent-workflow";
import { workflowRunIdSchema } from "@coauthor/types";
import { purgeLocalWorldRuns } from "./local-world-purge";
import { localWorldDir, runSettledInWorld } from "./world-purge";

// What only the engine needed of an ended run (events, step records, hooks, locks) is dropped from
// the local world; its log (run file and stream) stays until the retention sweep. The local world
// lists a whole folder to find one run's files, and every replay lists `events`: kept for
// RUN_LOG_RETENTION_DAYS, they made every later run's start and step ends slower as history grew
// (`bench/history-growth.ts`: +50 ms to the first text-delta with 25,000 event files). The
// Postgres world finds a run's rows by index and keeps them until the sweep.
//
// Runs whose end was recorded are purged together when the next run is admitted: that is when
// their files would cost, storage changes only as part of accepted work, and one listing of each
// folder serves the whole batch. A run is purged a second or more after its end (the world writes
// a run's last event a moment after marking it ended) and once the world has it settled.

const SETTLE_MS = 1_000;
// A cancelled or failed run whose step never ends is left to the retention sweep.
const GIVE_UP_MS = 5 * 60_000;

const PENDING = Symbol.for("coauthor.engine-state-purges");
type Holder = typeof globalThis & { [PENDING]?: { endedAt: Map<string, number>; purging: boolean } };

function pending() {
  const holder = globalThis as Holder;
  holder[PENDING] ??= { endedAt: new Map(), purging: false };
  return holder[PENDING];
}

/** Notes that a run's end is recorded: its engine state is purged at a later run's admission. */
export function noteRunEnded(runId: string): void {
  if (!localWorldDir()) return;
  pending().endedAt.set(workflowRunIdSchema.parse(runId), Date.now());
}

/** Purges the engine state of the ended runs that have settled (not awaited by the caller: logged). */
export function purgeEndedRunsEngineState(): void {
  const queue = pending();
  if (queue.purging || queue.endedAt.size === 0) return;
  queue.purging = true;
  purgeSettledRuns()
    .catch((error: unknown) => log.error("could not drop ended runs' engine state", { error }))
    .finally(() => {
      queue.purging = false;
    });
}

async function purgeSettledRuns(): Promise<void> {
  const dir = localWorldDir();
  const queue = pending();
  const now = Date.now();
  const due = [...queue.endedAt].filter(([, endedAt]) => now - endedAt >= SETTLE_MS);
  const purged: string[] = [];
  for (const [runId, endedAt] of due) {
    const settled = await runSettledInWorld(runId);
    if (settled === false && now - endedAt < GIVE_UP_MS) continue;
    // A run the world lost ("gone": its folder was emptied) has nothing left to purge.
    if (settled === true) purged.push(runId);
    queue.endedAt.delete(runId);
  }
  if (dir) await purgeLocalWorldRuns(dir, purged, "engine-state");
}
