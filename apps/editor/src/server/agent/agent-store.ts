import type { AgentStore } from "@coauthor/agent-workflow/server";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/server/db";
import { agentRunCheckpoints, agentToolResults, runs } from "@/server/db/schema";

/** The agent's durable store in the app's database (PGlite or PostgreSQL: shared by every instance). */
export const databaseAgentStore: AgentStore = {
  async putToolResult(runId, toolCallId, result) {
    const db = await getDb();
    const inserted = await db
      .insert(agentToolResults)
      .values({ runId, toolCallId, result })
      .onConflictDoNothing()
      .returning({ runId: agentToolResults.runId });
    return inserted.length > 0;
  },
  async getToolResult(runId, toolCallId) {
    const db = await getDb();
    const [row] = await db
      .select({ result: agentToolResults.result })
      .from(agentToolResults)
      .where(and(eq(agentToolResults.runId, runId), eq(agentToolResults.toolCallId, toolCallId)));
    return row ? { result: row.result } : undefined;
  },
  async loadCheckpoint(runId) {
    const db = await getDb();
    const [row] = await db
      .select({ state: agentRunCheckpoints.state })
      .from(agentRunCheckpoints)
      .where(eq(agentRunCheckpoints.runId, runId));
    return row?.state;
  },
  async saveCheckpoint(runId, state) {
    const db = await getDb();
    await db
      .insert(agentRunCheckpoints)
      .values({ runId, state })
      .onConflictDoUpdate({ target: agentRunCheckpoints.runId, set: { state, updatedAt: new Date() } });
  },
  async isStopped(runId) {
    const db = await getDb();
    const [row] = await db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
    return row?.status === "cancelled";
  },
};

/** Drops an ended run's working state (its events and summary stay in the run's history). */
export async function forgetRunState(runIds: string[]): Promise<void> {
  if (runIds.length === 0) return;
  const db = await getDb();
  await db.delete(agentRunCheckpoints).where(inArray(agentRunCheckpoints.runId, runIds));
  await db.delete(agentToolResults).where(inArray(agentToolResults.runId, runIds));
}
