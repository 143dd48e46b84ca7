import { log } from "@coauthor/agent-workflow/server";
import type postgres from "postgres";
import { takeDeadStepLeases } from "@/server/agent/step-leases";

// When an instance dies (SIGKILL, a lost machine), the Postgres world's job runner (graphile-worker)
// keeps the jobs that instance had taken locked for four hours before giving them to anyone else,
// so its runs would hang. The turns step's owner lease says sooner that the owner died: nobody
// renewed it. Every instance sweeps for such runs and unlocks the dead worker's jobs with
// graphile-worker's own `force_unlock_workers`, and wakes idle job slots as a new job would (its
// `jobs:insert` notification); one of them delivers the step again, on whichever instance takes it,
// and the step takes over the expired lease and resumes from its checkpoint. Unlocking is
// idempotent, so instances may sweep at once.

/**
 * The graphile-worker workers holding a step job of one of `runIds`. The job's payload is the
 * world's message (`data`: the base64 JSON of the step's delivery, which names its run).
 */
async function workersHolding(world: postgres.Sql, runIds: string[]): Promise<string[]> {
  const rows = await world<{ worker: string }[]>`
    select distinct locked_by as worker from graphile_worker._private_jobs
    where locked_by is not null
      and convert_from(decode(payload->>'data', 'base64'), 'UTF8')::jsonb->>'workflowRunId' = any(${runIds})`;
  return rows.map((row) => row.worker);
}

/** One sweep: frees the jobs of runs whose step owner died; returns the workers it unlocked. */
export async function sweepOrphanedSteps(world: postgres.Sql): Promise<string[]> {
  // The dead leases go first, so the next sweep does not unlock the jobs again once another
  // instance's worker holds them (the step it delivers takes a fresh lease).
  const orphaned = await takeDeadStepLeases();
  if (orphaned.length === 0) return [];
  const workers = await workersHolding(
    world,
    orphaned.map((run) => run.runId),
  );
  if (workers.length === 0) return [];
  await world`select graphile_worker.force_unlock_workers(${workers}::text[])`;
  // Not left to the slots' poll (WORKFLOW_POSTGRES_POLL_INTERVAL_MS): as many as there are runs.
  await world`select pg_notify('jobs:insert', ${JSON.stringify({ count: orphaned.length })})`;
  log.warn("unlocked the jobs of a dead instance's workers", {
    workers,
    runs: orphaned.map((run) => run.runId),
  });
  return workers;
}

/**
 * Sweeps every `everyMs` for the life of the process, on `world`, a connection to the world's
 * database (call once at server start, Postgres world).
 */
export function startOrphanedStepSweep(world: postgres.Sql, everyMs: number): void {
  const timer = setInterval(() => {
    sweepOrphanedSteps(world).catch((error: unknown) => log.error("orphaned step sweep failed", { error }));
  }, everyMs);
  timer.unref();
}
