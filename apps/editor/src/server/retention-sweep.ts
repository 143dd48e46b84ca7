import { log } from "@coauthor/agent-workflow";
import { and, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import { getWorld } from "workflow/runtime";
import { env } from "@/env";
import { getDb } from "@/server/db";
import { deletedRuns, documentVersions, rateLimitPoints, runs } from "@/server/db/schema";
import { purgeDeletedRuns } from "@/server/document-deletion";
import { purgeRunLogs } from "@/server/run-log-deletion";
import { versionsToThin } from "@/server/version-retention";
import { purgeWorkflowRuns } from "@/server/workflow/world-purge";

const DAY_MS = 86_400_000;
// Runs purged per round; a sweep goes round until none is left.
const BATCH = 100;
// How long a deleted document's runs keep their tombstone (and get purged again at every sweep).
const TOMBSTONE_MS = DAY_MS;

/** What one sweep removed (for the log and the tests). */
export interface SweepReport {
  runLogs: number;
  worldRuns: number;
  deletedRuns: number;
  rateLimitRows: number;
  versions: number;
}

/**
 * One retention sweep, safe on any number of instances at once:
 *
 * - run logs older than RUN_LOG_RETENTION_DAYS (counted from the run's end): the world's events and
 *   streams, the stored tool results and any leftover checkpoint. The run's row (its summary in
 *   History), its edits (Undo run) and the conversation stay. Each run is claimed by one atomic
 *   UPDATE (`logs_purged_at`), so two instances never purge the same run, and a purge that fails is
 *   released for the next sweep;
 * - any run the workflow world still keeps from before the cutoff, found with the world's own
 *   listing: also the runs of documents deleted before deletion purged the world, which have no
 *   row of ours any more;
 * - runs of deleted documents (tombstones): purged again, catching anything a stopping step wrote
 *   after the deletion; the tombstone goes after a day;
 * - rate-limit counters whose window is over (the store keeps one row per key otherwise forever);
 * - automatic document versions past their retention (named ones stay).
 *
 * Every delete is idempotent, so a sweep interrupted midway is finished by the next one.
 */
export async function sweepRetention(now = new Date()): Promise<SweepReport> {
  const report: SweepReport = { runLogs: 0, worldRuns: 0, deletedRuns: 0, rateLimitRows: 0, versions: 0 };
  const cutoff = new Date(now.getTime() - env.RUN_LOG_RETENTION_DAYS * DAY_MS);
  for (;;) {
    const claimed = await claimExpiredRuns(cutoff, now);
    if (claimed.length === 0) break;
    await purgeRunLogs(claimed);
    report.runLogs += claimed.length;
    if (claimed.length < BATCH) break;
  }
  report.worldRuns = await purgeExpiredWorldRuns(cutoff);
  report.deletedRuns = await purgeTombstonedRuns(now);
  const db = await getDb();
  const expired = await db
    .delete(rateLimitPoints)
    .where(lt(rateLimitPoints.expire, now))
    .returning({ key: rateLimitPoints.key });
  report.rateLimitRows = expired.length;
  report.versions = await thinVersions(now);
  return report;
}

/** Deletes the automatic versions the retention policy lets go (src/server/version-retention.ts); how many. */
async function thinVersions(now: Date): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - env.VERSION_KEEP_ALL_DAYS * DAY_MS);
  const old = await db
    .select({
      id: documentVersions.id,
      documentId: documentVersions.documentId,
      kind: documentVersions.kind,
      createdAt: documentVersions.createdAt,
    })
    .from(documentVersions)
    .where(and(ne(documentVersions.kind, "named"), lt(documentVersions.createdAt, cutoff)));
  const doomed = versionsToThin(
    old.map((row) => ({ ...row, named: row.kind === "named" })),
    now,
    { keepAllDays: env.VERSION_KEEP_ALL_DAYS, keepDailyDays: env.VERSION_KEEP_DAILY_DAYS },
  );
  for (let at = 0; at < doomed.length; at += BATCH) {
    await db.delete(documentVersions).where(inArray(documentVersions.id, doomed.slice(at, at + BATCH)));
  }
  return doomed.length;
}

/** Marks up to BATCH runs that ended before `cutoff` as purged and returns their ids (only this caller gets them). */
async function claimExpiredRuns(cutoff: Date, now: Date): Promise<string[]> {
  const db = await getDb();
  // An ISO string cast in SQL: a Date beside a raw expression would reach the driver untyped.
  const ended = sql`coalesce(${runs.finishedAt}, ${runs.createdAt}) < ${cutoff.toISOString()}::timestamptz`;
  const expired = and(isNull(runs.logsPurgedAt), ended);
  // The outer condition is checked again on each row after a concurrent claim commits, so a run
  // two instances both picked is returned to one of them only.
  const rows = await db
    .update(runs)
    // The conversation kept for Continue holds what the tools read: it goes with the log.
    .set({ logsPurgedAt: now, conversation: null })
    .where(and(expired, inArray(runs.id, db.select({ id: runs.id }).from(runs).where(expired).limit(BATCH))))
    .returning({ id: runs.id });
  return rows.map((row) => row.id);
}

/** Purges every world run created before `cutoff` (no run lasts a day, the shortest retention); how many. */
async function purgeExpiredWorldRuns(cutoff: Date): Promise<number> {
  const world = getWorld();
  let purged = 0;
  let cursor: string | undefined;
  do {
    const page = await world.runs.list({
      resolveData: "none",
      pagination: { limit: BATCH, sortOrder: "asc", ...(cursor ? { cursor } : {}) },
    });
    const expired = page.data.filter((run) => run.createdAt < cutoff).map((run) => run.runId);
    await purgeWorkflowRuns(expired);
    purged += expired.length;
    cursor = page.hasMore && page.cursor ? page.cursor : undefined;
  } while (cursor);
  return purged;
}

/** Purges the runs of deleted documents again and drops tombstones older than a day; how many were purged. */
async function purgeTombstonedRuns(now: Date): Promise<number> {
  const db = await getDb();
  const tombstones = await db.select({ runId: deletedRuns.runId }).from(deletedRuns);
  const runIds = tombstones.map((row) => row.runId);
  for (let at = 0; at < runIds.length; at += BATCH) {
    const batch = runIds.slice(at, at + BATCH);
    await purgeDeletedRuns(batch);
  }
  await db.delete(deletedRuns).where(lt(deletedRuns.deletedAt, new Date(now.getTime() - TOMBSTONE_MS)));
  return runIds.length;
}

const TIMER = Symbol.for("coauthor.retention-sweep");

/** Sweeps now and every RETENTION_SWEEP_INTERVAL_MS in this process (once per process); failures are logged and retried next time. */
export function startRetentionSweep(): void {
  const holder = globalThis as typeof globalThis & { [TIMER]?: ReturnType<typeof setInterval> };
  if (holder[TIMER]) return;
  const sweep = () => {
    sweepRetention()
      .then((report) => {
        if (report.runLogs + report.deletedRuns + report.rateLimitRows + report.versions > 0)
          log.info("retention sweep", { ...report });
      })
      .catch((error: unknown) => log.error("retention sweep failed; the next one retries", { error }));
  };
  holder[TIMER] = setInterval(sweep, env.RETENTION_SWEEP_INTERVAL_MS);
  // Never keeps the process alive by itself.
  holder[TIMER].unref();
  sweep();
}
