import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { getDb } from "@/server/db";
import { agentRunCheckpoints, agentRunMessages, runs, toolCallResults } from "@/server/db/schema";
import { purgeWorkflowRuns } from "@/server/workflow/world-purge";

/**
 * A run's log: the workflow world's events and streams, the stored tool results (what the tools
 * read), any leftover checkpoint, and the conversation kept for Continue. Removing it leaves the
 * run's summary in History (prompt, outcome, tokens), its edits (Undo run) and the assistant
 * conversation. The retention sweep removes it after RUN_LOG_RETENTION_DAYS; a writer may remove
 * it sooner (deleteRunLog).
 */

/** Removes the logs of runs already marked purged; on failure releases the mark so the next sweep tries again. */
export async function purgeRunLogs(runIds: string[]): Promise<void> {
  const db = await getDb();
  try {
    await purgeWorkflowRuns(runIds);
    await db.delete(toolCallResults).where(inArray(toolCallResults.runId, runIds));
    await db.delete(agentRunMessages).where(inArray(agentRunMessages.runId, runIds));
    await db.delete(agentRunCheckpoints).where(inArray(agentRunCheckpoints.runId, runIds));
  } catch (error) {
    await db.update(runs).set({ logsPurgedAt: null }).where(inArray(runs.id, runIds));
    throw error;
  }
}

/**
 * Deletes the log of one run that has ended, now: "running" when the run is still going (its log is
 * still being written), "deleted" otherwise (also when it was already gone). Claimed with one
 * atomic UPDATE, as the sweep claims, so the two never purge one run together.
 */
export async function deleteRunLog(runId: string): Promise<"deleted" | "running"> {
  const db = await getDb();
  const claimed = await db
    .update(runs)
    .set({ logsPurgedAt: new Date(), conversation: null })
    .where(and(eq(runs.id, runId), isNull(runs.logsPurgedAt), isNotNull(runs.finishedAt)))
    .returning({ id: runs.id });
  if (claimed.length > 0) {
    await purgeRunLogs([runId]);
    return "deleted";
  }
  const [row] = await db.select({ finishedAt: runs.finishedAt }).from(runs).where(eq(runs.id, runId));
  return row && row.finishedAt === null ? "running" : "deleted";
}
