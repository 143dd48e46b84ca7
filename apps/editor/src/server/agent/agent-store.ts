import type { AgentStore } from "@coauthor/agent-workflow/server";
import { and, asc, eq, sql } from "drizzle-orm";
import { claimTokenUse } from "@/server/agent/claim-token";
import { getDb } from "@/server/db";
import {
  agentRunCheckpoints,
  agentRunMessages,
  deletedRuns,
  runs,
  toolCallResults,
} from "@/server/db/schema";

/**
 * The agent's durable store in the app's database (PGlite or PostgreSQL:
 * shared by every instance). A tool result lives on its hook token's claim
 * row, written by the callback route in the same insert as the claim.
 */
export const databaseAgentStore: AgentStore = {
  claimToolResult: claimTokenUse,
  async getToolResult(runId, toolCallId) {
    const db = await getDb();
    const [row] = await db
      .select({ result: toolCallResults.result })
      .from(toolCallResults)
      .where(and(eq(toolCallResults.runId, runId), eq(toolCallResults.toolCallId, toolCallId)));
    return row && row.result !== null ? { result: row.result } : undefined;
  },
  async loadProgress(runId) {
    const db = await getDb();
    const [row] = await db
      .select({
        segment: agentRunCheckpoints.segment,
        state: agentRunCheckpoints.state,
        planning: agentRunCheckpoints.planning,
      })
      .from(agentRunCheckpoints)
      .where(eq(agentRunCheckpoints.runId, runId));
    if (!row) return undefined;
    const messages = await db
      .select({ message: agentRunMessages.message })
      .from(agentRunMessages)
      .where(and(eq(agentRunMessages.runId, runId), eq(agentRunMessages.segment, row.segment)))
      .orderBy(asc(agentRunMessages.seq));
    return {
      segment: row.segment,
      state: row.state,
      messages: messages.map((m) => m.message),
      ...(row.planning === null ? {} : { planning: row.planning }),
    };
  },
  async saveProgress(runId, segment, { state, messages, planning }) {
    const db = await getDb();
    // One statement, so the state and the messages it counts land together (an empty array adds
    // none). A save without a plan decision keeps the segment's (Postgres copies an unchanged
    // out-of-line value by reference).
    await db.execute(sql`
      with saved as (
        insert into ${agentRunCheckpoints} (run_id, segment, state, planning)
        values (${runId}, ${segment}, ${state}::jsonb, ${planning ?? null}::jsonb)
        on conflict (run_id) do update set
          state = excluded.state,
          planning = case
            when excluded.planning is null and ${agentRunCheckpoints.segment} = excluded.segment
            then ${agentRunCheckpoints.planning}
            else excluded.planning
          end,
          segment = excluded.segment,
          updated_at = now()
        returning run_id
      )
      insert into ${agentRunMessages} (run_id, segment, seq, message)
      select ${runId}, ${segment}, ${messages.from}::integer + (m.ordinality::integer - 1), m.value
      from jsonb_array_elements(${messages.json}::jsonb) with ordinality as m(value, ordinality)
      on conflict do nothing`);
  },
  async isStopped(runId) {
    const db = await getDb();
    const [row] = await db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
    if (row) return row.status === "cancelled";
    // No row: a run being admitted (its row lands when the admission commits) goes on; a run whose
    // document was deleted is stopped, on whichever instance its step runs.
    const [gone] = await db
      .select({ runId: deletedRuns.runId })
      .from(deletedRuns)
      .where(eq(deletedRuns.runId, runId));
    return gone !== undefined;
  },
};

/**
 * Drops an ended run's working state (its events, claims and summary stay in its history), in one
 * statement: a data-modifying CTE runs whether or not the query reads it.
 */
export async function forgetRunState(runId: string): Promise<void> {
  const db = await getDb();
  const checkpoint = db
    .$with("checkpoint")
    .as(
      db
        .delete(agentRunCheckpoints)
        .where(eq(agentRunCheckpoints.runId, runId))
        .returning({ runId: agentRunCheckpoints.runId }),
    );
  const messages = db
    .$with("messages")
    .as(
      db
        .delete(agentRunMessages)
        .where(eq(agentRunMessages.runId, runId))
        .returning({ runId: agentRunMessages.runId }),
    );
  await db.with(checkpoint, messages).select({ runId: checkpoint.runId }).from(checkpoint);
}
