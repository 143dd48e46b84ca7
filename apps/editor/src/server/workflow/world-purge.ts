import { join } from "node:path";
import { workflowRunIdSchema } from "@coauthor/types";
import { getRun } from "workflow/api";
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
 * is fine. Call it once a run can no longer write (cancelled, ended); deletion repeats it for the
 * runs of deleted documents (document-deletion.ts), which catches what a step wrote on its way out.
 * Returns how many rows (Postgres world) or files (local world) it removed.
 */
export async function purgeWorkflowRuns(runIds: readonly string[]): Promise<number> {
  // Run ids come from our database; anything else never becomes a path or a pattern.
  const ids = runIds.map((runId) => workflowRunIdSchema.parse(runId));
  if (ids.length === 0) return 0;
  const localDir = localWorldDir();
  if (localDir) return purgeLocalWorldRuns(localDir, ids);
  // env.ts admits only the two worlds this app runs on.
  const url = env.WORKFLOW_POSTGRES_URL ?? env.DATABASE_URL;
  if (!url) throw new Error("the Postgres world needs WORKFLOW_POSTGRES_URL (or DATABASE_URL)");
  return purgePostgresWorldRuns(url, ids);
}

/** The local world's data folder, or undefined when the app runs on the Postgres world. */
export function localWorldDir(): string | undefined {
  const target = env.WORKFLOW_TARGET_WORLD;
  if (target && target !== "local") return undefined;
  return env.WORKFLOW_LOCAL_DATA_DIR ?? join(dataDir(), "workflow");
}

/**
 * Whether the world will write nothing more for a run: it has ended and none of its steps still
 * executes (a cancelled run's step runs to its end and records it, which must come before a
 * purge); "gone" when the world has no such run. A run with more steps than one page counts as
 * not settled.
 */
export async function runSettledInWorld(runId: string): Promise<boolean | "gone"> {
  try {
    const status = await getRun(runId).status;
    if (status === "running" || status === "pending") return false;
    // Our workflows await every step they start, so a completed run has none left running; only a
    // cancelled or failed one may. Not listing its steps matters on the local world, which lists
    // every run's step files to find one run's (the engine-state purge asks this for each run).
    if (status === "completed") return true;
    const steps = await getWorld().steps.list({ runId, pagination: { limit: 1_000 }, resolveData: "none" });
    return !steps.hasMore && steps.data.every((step) => step.status !== "running");
  } catch (error) {
    if (WorkflowRunNotFoundError.is(error)) return "gone";
    throw error;
  }
}
