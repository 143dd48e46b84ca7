import type { ClaimOutcome, ToolResultClaim } from "@coauthor/agent-workflow/server";
import { eq } from "drizzle-orm";
import { getDb } from "@/server/db";
import { toolCallResults } from "@/server/db/schema";

/** PostgreSQL's foreign_key_violation, as drizzle passes it on from either driver (in `cause`). */
function isForeignKeyViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return typeof cause === "object" && cause !== null && "code" in cause && cause.code === "23503";
}

/**
 * Claims a hook token's jti once, atomically (a unique key in the database),
 * recording the tool result with it: the run's step reads it from this row.
 */
export async function claimTokenUse(use: ToolResultClaim): Promise<ClaimOutcome> {
  const db = await getDb();
  let inserted: { jti: string }[];
  try {
    inserted = await db
      .insert(toolCallResults)
      .values(use)
      .onConflictDoNothing()
      .returning({ jti: toolCallResults.jti });
  } catch (error) {
    // The result is stored with its run: a run whose document was deleted meanwhile has none.
    if (isForeignKeyViolation(error)) return "gone";
    throw error;
  }
  if (inserted.length > 0) return "claimed";
  const [existing] = await db.select().from(toolCallResults).where(eq(toolCallResults.jti, use.jti));
  return existing?.bodyHash === use.bodyHash ? "replay" : "conflict";
}

/** Releases a claim whose result could not be delivered, so the client may retry. */
export async function releaseTokenUse(jti: string): Promise<void> {
  const db = await getDb();
  await db.delete(toolCallResults).where(eq(toolCallResults.jti, jti));
}
