import { join } from "node:path";
import { workflowRunIdSchema } from "@coauthor/types";
import { getWorld } from "workflow/runtime";
import { env } from "@/env";
import { dataDir } from "@/server/data-dir";
import { purgeLocalWorldRuns } from "./local-world-purge";
import { purgePostgresWorldRuns } from "./postgres-world-purge";

/**
 * Removes what the Workflow DevKit world keeps of these runs: their input, event log, step
 * results, hooks and streams. Neither world has an API for deleting one run (the World interface
 * of 4.8 offers create, get, list and cancel; the local world's `clear()` empties everything), so
 * each store is purged in its own module, by its documented layout. Idempotent: a run already gone
 * is fine. Call it once a run can no longer write (cancelled, ended); the retention sweep repeats it
 * for runs of deleted documents, which catches a frame a step wrote on its way out.
 */
export async function purgeWorkflowRuns(runIds: readonly string[]): Promise<void> {
  // Run ids come from our database; anything else never becomes a path or a pattern.
  const ids = runIds.map((runId) => workflowRunIdSchema.parse(runId));
  if (ids.length === 0) return;
  if (isLocalWorld()) {
    await purgeLocalWorldRuns(localWorldDir(), ids);
    return;
  }
  // env.ts admits only the two worlds this app runs on.
  const url = env.WORKFLOW_POSTGRES_URL ?? env.DATABASE_URL;
  if (!url) throw new Error("the Postgres world needs WORKFLOW_POSTGRES_URL (or DATABASE_URL)");
  await purgePostgresWorldRuns(url, ids);
}

/**
 * Drops what only the engine needed of runs that completed (every step ended), keeping their log.
 * The local world lists a whole folder to find one run's files: every replay reads the `events`
 * folder, so events kept for RUN_LOG_RETENTION_DAYS would make every run's start and every step's
 * end slower as history grows (a folder of 40,000 files takes ~40 ms to list). What stays is what
 * the run's log is read from (its run file and stream), until the retention sweep. The Postgres
 * world finds a run's rows by index and keeps them until then.
 */
export async function purgeCompletedRunEngineState(runId: string): Promise<void> {
  if (!isLocalWorld()) return;
  const id = workflowRunIdSchema.parse(runId);
  // The world marks the run completed, then writes its last event: purged once that is written,
  // or left to the retention sweep if it is not soon (a file written after the purge would stay).
  if (!(await lastEventWritten(id))) return;
  await purgeLocalWorldRuns(localWorldDir(), [id], "engine-state");
}

const LAST_EVENT_WAITS_MS = [5, 20, 80, 320];

/** Whether the engine has written a completed run's `run_completed` event (asked a few times). */
async function lastEventWritten(runId: string): Promise<boolean> {
  for (const pause of [0, ...LAST_EVENT_WAITS_MS]) {
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    const last = await getWorld().events.list({
      runId,
      pagination: { sortOrder: "desc", limit: 1 },
      resolveData: "none",
    });
    if (last.data[0]?.eventType === "run_completed") return true;
  }
  return false;
}

const isLocalWorld = () => !env.WORKFLOW_TARGET_WORLD || env.WORKFLOW_TARGET_WORLD === "local";
const localWorldDir = () => env.WORKFLOW_LOCAL_DATA_DIR ?? join(dataDir(), "workflow");
