import { log } from "@coauthor/agent-workflow/server";
import type postgres from "postgres";
import { takeDeadStepLeases } from "@/server/agent/step-leases";
import { EXPIRES_AFTER, liveJobWorkers } from "@/server/workflow/job-capacity";

// When an instance dies (SIGKILL, a lost machine), the Postgres world's job runner (graphile-worker)
// keeps the jobs that instance had taken locked for four hours before giving them to anyone else,
// so its runs would hang; so does a worker that exited for good because it could not reach the
// database to release its job (graphile-worker 0.16). Every instance sweeps for such jobs and
// unlocks them with graphile-worker's own `force_unlock_workers`, and wakes idle job slots as a new
// job would (its `jobs:insert` notification); one of them delivers the step again, on whichever
// instance takes it. Two signs say a worker died:
// - the turns step's owner lease expired: nobody renewed it (the sooner sign, for runs' turns);
// - no live instance names the worker that has held a job for longer than an instance's row lives
//   (job-capacity.ts): any step, a worker that died inside a live instance too.
// The step takes over an expired lease and resumes from its checkpoint. Unlocking is idempotent,
// so instances may sweep at once.

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

/**
 * The workers that have held a job for longer than an instance's row lives (EXPIRES_AFTER) and that
 * no live instance names: each instance names its own workers within a renewal of making them, so
 * these died without unlocking their job.
 */
async function vanishedWorkers(world: postgres.Sql): Promise<string[]> {
  // Read first: a worker made after this read has not held its job that long.
  const live = await liveJobWorkers();
  const rows = await world<{ worker: string }[]>`
    select distinct locked_by as worker from graphile_worker._private_jobs
    where locked_by is not null
      and locked_at < now() - ${EXPIRES_AFTER}::interval
      and not (locked_by = any(${live}::text[]))`;
  return rows.map((row) => row.worker);
}

/** One sweep: frees the jobs of dead workers; returns the workers it unlocked. */
async function sweepOrphanedSteps(world: postgres.Sql): Promise<string[]> {
  // The dead leases go first, so the next sweep does not unlock the jobs again once another
  // instance's worker holds them (the step it delivers takes a fresh lease).
  const orphaned = await takeDeadStepLeases();
  const leaseHolders =
    orphaned.length === 0
      ? []
      : await workersHolding(
          world,
          orphaned.map((run) => run.runId),
        );
  const workers = [...new Set([...leaseHolders, ...(await vanishedWorkers(world))])];
  if (workers.length === 0) return [];
  await world`select graphile_worker.force_unlock_workers(${workers}::text[])`;
  // Not left to the slots' poll (WORKFLOW_POSTGRES_POLL_INTERVAL_MS): a slot for each job freed
  // (a worker holds one job at a time).
  await world`select pg_notify('jobs:insert', ${JSON.stringify({ count: workers.length })})`;
  log.warn("unlocked the jobs of dead job workers", {
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
