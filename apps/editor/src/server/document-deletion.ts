import { log } from "@coauthor/agent-workflow";
import { abortRun, notifyStop } from "@coauthor/agent-workflow/server";
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { getRun } from "workflow/api";
import { lockDocumentAdmissions } from "@/server/agent/run-admission";
import { getDb } from "@/server/db";
import { agentRunCheckpoints, agentRunMessages, deletedRuns, documents, runs } from "@/server/db/schema";
import { purgeWorkflowRuns, runSettledInWorld } from "@/server/workflow/world-purge";

const DELETED_REASON = "the document was deleted";
// How long deletion waits for a cancelled run to be over in the world before purging it.
const SETTLE_TIMEOUT_MS = 5_000;
const SETTLE_POLL_MS = 50;

/**
 * Deletes a document its owner asked to delete, and everything kept about it, in every store:
 *
 * - the app's database, in one transaction: the document row (content, Yjs snapshot), and by
 *   cascade its update log, members, runs, their tool results (`tool_call_results`), edits and
 *   leases, and the conversation; the turns step's checkpoints, which have no foreign key, by id;
 * - the Workflow DevKit world: each run's input, event log, step results and streams
 *   (`purgeWorkflowRuns`), once its running runs are stopped.
 *
 * A tombstone per run (`deleted_runs`, ids only) makes a step still going on any instance read its
 * run as stopped, and lets every instance purge the world again for what runs write after
 * (`purgeLateWrites`), as the retention sweep does later. Returns false, changing
 * nothing, when the document is not the user's.
 */
export async function deleteOwnedDocument(ownerId: string, documentId: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db.transaction(async (tx) => {
    // Under the admission lock, so no run of this document is admitted after its runs are read.
    await lockDocumentAdmissions(tx, documentId);
    const owned = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.id, documentId), eq(documents.ownerId, ownerId)));
    if (owned.length === 0) return null;
    const documentRuns = await tx
      .select({ id: runs.id, status: runs.status })
      .from(runs)
      .where(eq(runs.documentId, documentId));
    const runIds = documentRuns.map((run) => run.id);
    if (runIds.length > 0) {
      await tx
        .insert(deletedRuns)
        .values(runIds.map((runId) => ({ runId })))
        .onConflictDoNothing();
      await tx.delete(agentRunMessages).where(inArray(agentRunMessages.runId, runIds));
      await tx.delete(agentRunCheckpoints).where(inArray(agentRunCheckpoints.runId, runIds));
    }
    await tx.delete(documents).where(eq(documents.id, documentId));
    return documentRuns;
  });
  if (!deleted) return false;
  const running = deleted.filter((run) => run.status === "running").map((run) => run.id);
  await Promise.all(running.map(stopRun));
  await purgeWorkflowRuns(deleted.map((run) => run.id));
  log.info("document deleted", { documentId, runs: deleted.length, stopped: running.length });
  return true;
}

// A run of a deleted document may still write to the world after its purge: a step on its way out
// records its end, a delivery already queued (the Postgres world's job queue, retried with backoff)
// replays it. No fixed delay covers every such write on a loaded machine, so for a while after a
// deletion every instance purges its runs again at a short interval: a late write lives at most
// that long. The window opens once the deletion's own purge is due (its runs settled, or
// SETTLE_TIMEOUT_MS), so a run is not purged under a step still stopping. The retention sweep
// repeats it from the tombstones for a day, also across restarts.
const LATE_WRITE_WINDOW_MS = 120_000;
const LATE_WRITE_PURGE_EVERY_MS = 2_000;
const LATE_WRITE_TIMER = Symbol.for("coauthor.late-write-purge");

/** Purges the runs of documents deleted SETTLE_TIMEOUT_MS to LATE_WRITE_WINDOW_MS ago again; how many rows or files it removed. */
export async function purgeLateWrites(): Promise<number> {
  const db = await getDb();
  const recent = await db
    .select({ runId: deletedRuns.runId })
    .from(deletedRuns)
    .where(
      and(
        gt(deletedRuns.deletedAt, sql`now() - ${`${LATE_WRITE_WINDOW_MS} milliseconds`}::interval`),
        lt(deletedRuns.deletedAt, sql`now() - ${`${SETTLE_TIMEOUT_MS} milliseconds`}::interval`),
      ),
    );
  if (recent.length === 0) return 0;
  const runIds = recent.map((row) => row.runId);
  const removed = await purgeDeletedRuns(runIds);
  // Each such write was one the world made after a purge: worth knowing which runs do it.
  if (removed > 0)
    log.warn("a deleted document's run wrote after its purge; purged again", { runIds, removed });
  return removed;
}

/**
 * Removes what deleted documents' runs (`runIds`, tombstoned) wrote since their purge: their world
 * records, and the turns step's checkpoints (a step on its way out may save one); how many world rows
 * or files it removed.
 */
export async function purgeDeletedRuns(runIds: string[]): Promise<number> {
  const removed = await purgeWorkflowRuns(runIds);
  const db = await getDb();
  await db.delete(agentRunMessages).where(inArray(agentRunMessages.runId, runIds));
  await db.delete(agentRunCheckpoints).where(inArray(agentRunCheckpoints.runId, runIds));
  return removed;
}

/** Purges late writes of deleted documents' runs every LATE_WRITE_PURGE_EVERY_MS (once per process). */
export function startLateWritePurge(): void {
  const holder = globalThis as typeof globalThis & { [LATE_WRITE_TIMER]?: ReturnType<typeof setInterval> };
  if (holder[LATE_WRITE_TIMER]) return;
  holder[LATE_WRITE_TIMER] = setInterval(() => {
    purgeLateWrites().catch((error: unknown) =>
      log.error("purging a deleted document's runs again failed; the next round retries", { error }),
    );
  }, LATE_WRITE_PURGE_EVERY_MS);
  holder[LATE_WRITE_TIMER].unref();
}

/** Ends a run of a deleted document: interrupts its step here and cancels it in the world (every instance). */
async function stopRun(runId: string): Promise<void> {
  abortRun(runId, DELETED_REASON);
  notifyStop(runId);
  const run = getRun(runId);
  try {
    await run.cancel();
  } catch (error) {
    // The run may have ended (or never reached the world) between our read and the cancel: then
    // there is nothing to stop. Anything else is a failure to stop it.
    if (!(await isOver(runId))) throw error;
  }
  const until = Date.now() + SETTLE_TIMEOUT_MS;
  while (!(await isOver(runId))) {
    if (Date.now() > until) {
      log.warn("deleted document's run still not over in the world; purging anyway", { runId });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Whether the run is over in the world (or the world has no such run), so it may be purged. */
async function isOver(runId: string): Promise<boolean> {
  return (await runSettledInWorld(runId)) !== false;
}
