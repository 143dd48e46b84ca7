import type { EditMode, RunStatus } from "@coauthor/types";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "./db";
import { runs, toolCallResults } from "./db/schema";

/** The stored run, or null. */
export async function findRun(runId: string) {
  const db = await getDb();
  const [row] = await db.select().from(runs).where(eq(runs.id, runId));
  return row ?? null;
}

/** Records the edit mode the run's writer switched to (what a server executing its calls uses). */
export async function setRunEditMode(runId: string, editMode: EditMode) {
  const db = await getDb();
  await db.update(runs).set({ editMode }).where(eq(runs.id, runId));
}

/** Marks a running run ended with `status` (the first end recorded wins). */
export async function finishRun(runId: string, status: Exclude<RunStatus, "running">) {
  const db = await getDb();
  await db
    .update(runs)
    .set({ status, finishedAt: new Date() })
    .where(and(eq(runs.id, runId), eq(runs.status, "running")));
}

/** The ids of every run still marked running (server start: supervise or recover them). */
export async function listRunningRuns(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ id: runs.id }).from(runs).where(eq(runs.status, "running"));
  return rows.map((row) => row.id);
}

/** The user's most recent run on a document that is still marked running, or null. */
export async function findRunningRun(userId: string, documentId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.userId, userId), eq(runs.documentId, documentId), eq(runs.status, "running")))
    .orderBy(desc(runs.createdAt))
    .limit(1);
  return row ?? null;
}

/** The tool calls of a run whose result the server has accepted (their token's jti is claimed). */
export async function answeredToolCallIds(runId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ toolCallId: toolCallResults.toolCallId })
    .from(toolCallResults)
    .where(eq(toolCallResults.runId, runId));
  return rows.map((row) => row.toolCallId);
}
