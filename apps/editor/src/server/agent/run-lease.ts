import { and, eq, lt, or, sql } from "drizzle-orm";
import { getDb } from "@/server/db";
import { runLeases } from "@/server/db/schema";

/** How long a lease holds without a renewal (the holder renews it every third of this). */
export const RUN_LEASE_TTL_MS = 6_000;

/**
 * Grants (or renews) the lease on `runId` to `tabId` when nobody holds it, it has expired, or the
 * tab already holds it; one statement, so two tabs asking at once cannot both get it.
 */
export async function claimRunLease(runId: string, tabId: string): Promise<boolean> {
  const db = await getDb();
  const expiresAt = sql`now() + ${`${RUN_LEASE_TTL_MS} milliseconds`}::interval`;
  const rows = await db
    .insert(runLeases)
    .values({ runId, tabId, expiresAt })
    .onConflictDoUpdate({
      target: runLeases.runId,
      set: { tabId, expiresAt },
      setWhere: or(eq(runLeases.tabId, tabId), lt(runLeases.expiresAt, sql`now()`)),
    })
    .returning({ tabId: runLeases.tabId });
  return rows[0]?.tabId === tabId;
}

/** Lets go of the lease if `tabId` holds it (another tab may take over at once). */
export async function releaseRunLease(runId: string, tabId: string): Promise<void> {
  const db = await getDb();
  await db.delete(runLeases).where(and(eq(runLeases.runId, runId), eq(runLeases.tabId, tabId)));
}

/**
 * Lets go of the lease as the server executor does after a call: the row stays, expired, naming
 * the server, so anyone may claim it at once and `lastHeldByServer` can tell that no tab came back.
 */
export async function yieldRunLease(runId: string, holder: string): Promise<void> {
  const db = await getDb();
  await db
    .update(runLeases)
    .set({ expiresAt: sql`now()` })
    .where(and(eq(runLeases.runId, runId), eq(runLeases.tabId, holder)));
}

/** True when `holder` was the last to hold the lease on `runId` (no tab has claimed it since). */
export async function lastHeldBy(runId: string, holder: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .select({ tabId: runLeases.tabId })
    .from(runLeases)
    .where(eq(runLeases.runId, runId))
    .limit(1);
  return rows[0]?.tabId === holder;
}
