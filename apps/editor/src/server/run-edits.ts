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

/** Saves (replaces) a run's edits. */
export async function saveRunEdits(runId: string, edits: RunEdits): Promise<void> {
  const db = await getDb();
  await db
    .insert(runEdits)
    .values({ runId, edits })
    .onConflictDoUpdate({ target: runEdits.runId, set: { edits, updatedAt: new Date() } });
}
