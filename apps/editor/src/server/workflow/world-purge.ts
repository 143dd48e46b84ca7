import { join } from "node:path";
import { workflowRunIdSchema } from "@coauthor/types";
import { WorkflowRunNotFoundError } from "workflow/errors";
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
 * Drops what only the engine needed of an ended run (events, step records, hooks, locks), keeping
 * its log. The local world lists a whole folder to find one run's files: every replay lists the
 * `events` folder, so events kept for RUN_LOG_RETENTION_DAYS made every later run's start and step
 * ends slower as history grew (`bench/history-growth.ts`: +50 ms to the first text-delta with
 * 25,000 event files). What stays is what the run's log is read from (its run file and stream),
 * until the retention sweep. The Postgres world finds a run's rows by index and keeps them until then.
 */
export async function purgeEndedRunEngineState(runId: string): Promise<void> {
  if (!isLocalWorld()) return;
  const id = workflowRunIdSchema.parse(runId);
  // Purged once nothing can write for the run any more, or left to the retention sweep if that
  // does not come soon (a file written after the purge would stay until then).
  if (!(await settled(id))) return;
  await purgeLocalWorldRuns(localWorldDir(), [id], "engine-state");
}

const SETTLE_WAITS_MS = [5, 20, 80, 320, 1_000, 2_000];
const RUN_ENDS = new Set(["run_completed", "run_cancelled", "run_failed"]);

/**
 * Whether the world will write nothing more for an ended run: its own end is written (the world
 * marks a run ended a moment before it writes the event) and none of its steps still executes (a
 * cancelled or failed run's step runs to its end and records it). Asked a few times.
 */
async function settled(runId: string): Promise<boolean> {
  const world = getWorld();
  for (const pause of [0, ...SETTLE_WAITS_MS]) {
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    try {
      const [events, steps] = await Promise.all([
        world.events.list({ runId, pagination: { sortOrder: "desc", limit: 50 }, resolveData: "none" }),
        // A pipeline's run has many steps: all of them (a run with more is left to the sweep).
        world.steps.list({ runId, pagination: { limit: 1_000 }, resolveData: "none" }),
      ]);
      const ended = events.data.some((event) => RUN_ENDS.has(event.eventType));
      const stepsOver =
        !steps.hasMore && steps.data.every((step) => step.status !== "running" && step.status !== "pending");
      if (ended && stepsOver) return true;
    } catch (error) {
      // The world lost the run (its folder was emptied): nothing of it is left to purge.
      if (WorkflowRunNotFoundError.is(error)) return false;
      throw error;
    }
  }
  return false;
}

const isLocalWorld = () => !env.WORKFLOW_TARGET_WORLD || env.WORKFLOW_TARGET_WORLD === "local";
const localWorldDir = () => env.WORKFLOW_LOCAL_DATA_DIR ?? join(dataDir(), "workflow");
