import { and, eq } from "drizzle-orm";
import { getDb } from "./db";
import { runs } from "./db/schema";

/** Records a started run (who, which document, what was asked). */
export async function recordRun(run: {
  id: string;
  documentId: string;
  userId: string;
  prompt: string;
  model: string;
}) {
  const db = await getDb();
  await db.insert(runs).values(run);
}

/** The stored run, or null. */
export async function findRun(runId: string) {
  const db = await getDb();
  const [row] = await db.select().from(runs).where(eq(runs.id, runId));
  return row ?? null;
}

/** Marks a running run ended with `status` (the first end recorded wins). */
export async function finishRun(runId: string, status: string) {
  const db = await getDb();
  await db
    .update(runs)
    .set({ status, finishedAt: new Date() })
    .where(and(eq(runs.id, runId), eq(runs.status, "running")));
}
