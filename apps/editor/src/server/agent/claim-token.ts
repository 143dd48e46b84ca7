import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/server/db";
import { hookTokenUses } from "@/server/db/schema";

/** First use, a replay of the same body, a different body with a used token, or a run that no longer exists. */
export type ClaimOutcome = "claimed" | "replay" | "conflict" | "gone";

/** PostgreSQL's foreign_key_violation, as drizzle passes it on from either driver (in `cause`). */
function isForeignKeyViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return typeof cause === "object" && cause !== null && "code" in cause && cause.code === "23503";
}

/** Hash of the canonical callback body (replays compare by it). */
export function bodyHash(toolCallId: string, result: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([toolCallId, result]))
    .digest("hex");
}

/**
 * Claims a hook token's jti once, atomically (a unique key in the database),
 * recording the tool result with it: the run's step reads it from this row.
 */
export async function claimTokenUse(use: {
  jti: string;
  runId: string;
  toolCallId: string;
  bodyHash: string;
  result: unknown;
}): Promise<ClaimOutcome> {
  const db = await getDb();
  let inserted: { jti: string }[];
  try {
    inserted = await db
      .insert(hookTokenUses)
      .values(use)
      .onConflictDoNothing()
      .returning({ jti: hookTokenUses.jti });
  } catch (error) {
    // The result is stored with its run: a run whose document was deleted meanwhile has none.
    if (isForeignKeyViolation(error)) return "gone";
    throw error;
  }
  if (inserted.length > 0) return "claimed";
  const [existing] = await db.select().from(hookTokenUses).where(eq(hookTokenUses.jti, use.jti));
  return existing?.bodyHash === use.bodyHash ? "replay" : "conflict";
}

/** Releases a claim whose result could not be delivered, so the client may retry. */
export async function releaseTokenUse(jti: string): Promise<void> {
  const db = await getDb();
  await db.delete(hookTokenUses).where(eq(hookTokenUses.jti, jti));
}
