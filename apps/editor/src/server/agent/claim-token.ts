import type { ClaimOutcome, ToolResultClaim } from "@coauthor/agent-workflow/server";
import { and, eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { getDb } from "@/server/db";
import { agentRunCheckpoints, documents, runs, toolCallResults } from "@/server/db/schema";
import { editableBy } from "@/server/documents";

/** PostgreSQL's foreign_key_violation, as drizzle passes it on from either driver (in `cause`). */
function isForeignKeyViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return typeof cause === "object" && cause !== null && "code" in cause && cause.code === "23503";
}

/**
 * Claims a hook token's jti once, atomically (a unique key in the database), recording the tool
 * result with it (the run's step reads it from this row) — in one statement with the run's checks:
 * recorded only for a run of the writer and document the token names, while it is running and its
 * writer may still edit its document ("refused" otherwise: a run that ended, a writer who lost the
 * editor role, a token whose claims do not match its run record nothing). A result the server
 * executor recorded (`checkedByServer`) had the writer's rights checked for its tool already.
 */
export async function claimTokenUse(use: ToolResultClaim): Promise<ClaimOutcome> {
  const db = await getDb();
  const row = new QueryBuilder()
    .select({
      jti: sql<string>`${use.jti}`.as("jti"),
      runId: runs.id,
      toolCallId: sql<string>`${use.toolCallId}`.as("tool_call_id"),
      bodyHash: sql<string>`${use.bodyHash}`.as("body_hash"),
      result: sql`${JSON.stringify(use.result)}::jsonb`.as("result"),
      usedAt: sql<Date>`now()`.as("used_at"),
    })
    .from(runs)
    .innerJoin(documents, eq(documents.id, runs.documentId))
    .where(
      and(
        eq(runs.id, use.runId),
        eq(runs.userId, use.userId),
        eq(runs.documentId, use.documentId),
        eq(runs.status, "running"),
        use.checkedByServer ? undefined : editableBy(runs.userId),
      ),
    );
  const insert = db
    .insert(toolCallResults)
    .select(row)
    .onConflictDoNothing()
    .returning({ jti: toolCallResults.jti });
  let inserted: { jti: string }[];
  try {
    if (use.markModelPhase) {
      // The run's step in this process goes straight on to a model turn: the same statement marks
      // the model phase in its saved progress, only when the claim was written (a data-modifying
      // CTE runs whether or not the query reads it) and the progress waits on tools.
      const claimed = db.$with("claimed").as(insert);
      const marked = db.$with("marked", { runId: agentRunCheckpoints.runId }).as(
        sql`update ${agentRunCheckpoints}
            set state = jsonb_set(${agentRunCheckpoints.state}, '{phase}', '"model"'), updated_at = now()
            where ${agentRunCheckpoints.runId} = ${use.runId}
              and ${agentRunCheckpoints.state} ->> 'phase' = 'tools'
              and exists (select 1 from ${claimed})
            returning ${agentRunCheckpoints.runId}`,
      );
      inserted = await db.with(claimed, marked).select({ jti: claimed.jti }).from(claimed);
    } else {
      inserted = await insert;
    }
  } catch (error) {
    // The result is stored with its run: a run whose document was deleted meanwhile has none.
    if (isForeignKeyViolation(error)) return "gone";
    throw error;
  }
  if (inserted.length > 0) return "claimed";
  const [existing] = await db
    .select({ bodyHash: toolCallResults.bodyHash })
    .from(toolCallResults)
    .where(eq(toolCallResults.jti, use.jti));
  if (!existing) return "refused";
  return existing.bodyHash === use.bodyHash ? "replay" : "conflict";
}
