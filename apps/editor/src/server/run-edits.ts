import { mergeRunEdits } from "@coauthor/tools";
import { type RunEdits, runEditsSchema } from "@coauthor/types";
import { eq } from "drizzle-orm";
import { getDb } from "./db";
import { runEdits } from "./db/schema";

/** A run's stored edits, or null when none were saved. */
export async function findRunEdits(runId: string): Promise<RunEdits | null> {
  const db = await getDb();
  const [row] = await db.select({ edits: runEdits.edits }).from(runEdits).where(eq(runEdits.runId, runId));
  if (!row) return null;
  // Stored by a client: checked again on the way out, as on the way in.
  const parsed = runEditsSchema.safeParse(row.edits);
  return parsed.success ? parsed.data : null;
}

/**
 * Adds what one more part of a run changed (a call the server executor ran, or what a tab recorded
 * since its last save) after what is stored, as if recorded whole (mergeRunEdits). The row is locked for the merge: two parts merged at once
 * both land.
 */
export async function appendRunEdits(runId: string, later: RunEdits): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ edits: runEdits.edits })
      .from(runEdits)
      .where(eq(runEdits.runId, runId))
      .for("update");
    const earlier = row ? runEditsSchema.safeParse(row.edits) : null;
    const edits = earlier?.success ? mergeRunEdits(earlier.data, later) : later;
    await tx
      .insert(runEdits)
      .values({ runId, edits })
      .onConflictDoUpdate({ target: runEdits.runId, set: { edits, updatedAt: new Date() } });
  });
}
