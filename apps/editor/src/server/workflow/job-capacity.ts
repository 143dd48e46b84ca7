import { randomUUID } from "node:crypto";
import { log } from "@coauthor/agent-workflow/server";
import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { getDb } from "@/server/db";
import { instanceJobSlots } from "@/server/db/schema";
import type { JobWorkers } from "@/server/workflow/job-workers";

// On the Postgres world an instance runs at most WORKFLOW_POSTGRES_WORKER_CONCURRENCY jobs at once,
// and a run's turns step holds one of them while it waits on the browser. A job no instance has a
// slot for waits in the queue, so a run admitted when every slot is taken would start and then say
// nothing until another run ends. Each instance therefore says how many slots it has (a row renewed
// every RENEW_MS, counted while younger than EXPIRES_AFTER), and admission compares their sum with
// the jobs running now (those the job runner, graphile-worker, has locked) before it starts a run.
// The same row names the instance's live job workers: a job locked by a worker that no live row
// names was left by a worker that died (job-workers.ts, orphaned-steps.ts).

const RENEW_MS = 5_000;
/** A row older than this is an instance that died; a worker it named is dead too. */
export const EXPIRES_AFTER = "15 seconds";

/** The deployment's job slots (live instances') and how many hold a job now. */
export interface JobCapacity {
  slots: number;
  busy: number;
}

const KEY = Symbol.for("coauthor.job-capacity");
type Holder = typeof globalThis & { [KEY]?: { world: postgres.Sql } };

async function renew(instanceId: string, slots: number, workers: string[]): Promise<void> {
  const db = await getDb();
  await db
    .insert(instanceJobSlots)
    .values({ instanceId, slots, workers, seenAt: sql`now()` })
    .onConflictDoUpdate({ target: instanceJobSlots.instanceId, set: { workers, seenAt: sql`now()` } });
  // Instances that died (or restarted under a new id) stop counting; their rows go too.
  await db.execute(
    sql`delete from ${instanceJobSlots} where ${instanceJobSlots.seenAt} < now() - ${EXPIRES_AFTER}::interval`,
  );
}

/**
 * Says this instance's `slots` and live job workers now and every RENEW_MS for the life of the
 * process, and lets `jobCapacity` read the world's job queue on `world`, a connection to the world's
 * database (call once at server start, Postgres world).
 */
export async function startJobCapacityBeacon(
  world: postgres.Sql,
  slots: number,
  workers: JobWorkers,
): Promise<void> {
  const instanceId = randomUUID();
  await renew(instanceId, slots, workers.live());
  const timer = setInterval(() => {
    renew(instanceId, slots, workers.live()).catch((error: unknown) =>
      log.error("job slots not renewed", { error }),
    );
  }, RENEW_MS);
  timer.unref();
  (globalThis as Holder)[KEY] = { world };
}

/** The deployment's job capacity now; null on the local world (its queue has no slots to run out of). */
export async function jobCapacity(): Promise<JobCapacity | null> {
  const held = (globalThis as Holder)[KEY];
  if (!held) return null;
  const db = await getDb();
  const [[live], [locked]] = await Promise.all([
    db
      .select({ slots: sql<number>`coalesce(sum(${instanceJobSlots.slots}), 0)`.mapWith(Number) })
      .from(instanceJobSlots)
      .where(sql`${instanceJobSlots.seenAt} >= now() - ${EXPIRES_AFTER}::interval`),
    held.world<{ busy: number }[]>`
      select count(*)::int as busy from graphile_worker._private_jobs where locked_at is not null`,
  ]);
  return { slots: live?.slots ?? 0, busy: locked?.busy ?? 0 };
}

/** The job workers that live instances name now (each instance's own, renewed every RENEW_MS). */
export async function liveJobWorkers(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ worker: sql<string>`unnest(${instanceJobSlots.workers})` })
    .from(instanceJobSlots)
    .where(sql`${instanceJobSlots.seenAt} >= now() - ${EXPIRES_AFTER}::interval`);
  return rows.map((row) => row.worker);
}
