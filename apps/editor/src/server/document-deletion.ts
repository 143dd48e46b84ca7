import { log } from "@coauthor/agent-workflow";
import { abortRun, notifyStop } from "@coauthor/agent-workflow/server";
import { and, eq, inArray } from "drizzle-orm";
import { getRun } from "workflow/api";
import { lockDocumentAdmissions } from "@/server/agent/run-admission";
import { getDb } from "@/server/db";
import { agentRunCheckpoints, agentRunMessages, deletedRuns, documents, runs } from "@/server/db/schema";
import { purgeWorkflowRuns, runSettledInWorld } from "@/server/workflow/world-purge";

const DELETED_REASON = "the document was deleted";
// How long deletion waits for a cancelled run to be over in the world before purging it.
const SETTLE_TIMEOUT_MS = 5_000;
const SETTLE_POLL_MS = 50;
const REPURGE_AFTER_MS = [2_000, 10_000];

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
 * run as stopped, and lets the retention sweep purge the world again later. Returns false, changing
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
  if (running.length > 0) purgeAgainLater(running);
  log.info("document deleted", { documentId, runs: deleted.length, stopped: running.length });
  return true;
}

/**
 * A delivery already queued for a stopped run (the Postgres world's job queue) may still record an
 * event after the purge; purge those runs again shortly after. The retention sweep repeats it from
 * the tombstones for a day, also across restarts.
 */
function purgeAgainLater(runIds: string[]): void {
  for (const delay of REPURGE_AFTER_MS) {
    const timer = setTimeout(() => {
      purgeWorkflowRuns(runIds).catch((error: unknown) =>
        log.error("purging a deleted document's runs again failed; the sweep retries", { runIds, error }),
      );
    }, delay);
    timer.unref();
  }
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
