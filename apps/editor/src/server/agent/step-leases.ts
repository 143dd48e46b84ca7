import type { StepLeaseStore } from "@coauthor/agent-workflow/server";
import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import { getDb } from "@/server/db";
import { runs, stepLeases } from "@/server/db/schema";

// The owner leases of runs' turns steps in the shared database (the Postgres world: several
// instances). Expiry is the database's clock, so instances' clocks never disagree about it.

const expiry = (ttlMs: number) => sql`now() + ${`${ttlMs} milliseconds`}::interval`;

export const databaseStepLeaseStore: StepLeaseStore = {
  async acquire(runId, owner, ttlMs) {
    const db = await getDb();
    // One statement: taken when free, expired or already ours, so two executors never both get it.
    const [taken] = await db
      .insert(stepLeases)
      .values({ runId, owner, expiresAt: expiry(ttlMs) })
      .onConflictDoUpdate({
        target: stepLeases.runId,
        set: { owner, expiresAt: expiry(ttlMs) },
        setWhere: or(eq(stepLeases.owner, owner), lt(stepLeases.expiresAt, sql`now()`)),
      })
      .returning({ owner: stepLeases.owner });
    if (taken?.owner === owner) return { acquired: true };
    const [held] = await db
      .select({
        owner: stepLeases.owner,
        expiresInMs: sql<number>`greatest(0, extract(epoch from (${stepLeases.expiresAt} - now())) * 1000)::float8`,
      })
      .from(stepLeases)
      .where(eq(stepLeases.runId, runId));
    // Released between the two statements: free now, so ask again at once.
    return { acquired: false, holder: held ?? { owner: "nobody", expiresInMs: 0 } };
  },
  async renew(runId, owner, ttlMs) {
    const db = await getDb();
    const renewed = await db
      .update(stepLeases)
      .set({ expiresAt: expiry(ttlMs) })
      .where(and(eq(stepLeases.runId, runId), eq(stepLeases.owner, owner)))
      .returning({ runId: stepLeases.runId });
    return renewed.length > 0;
  },
  async release(runId, owner) {
    const db = await getDb();
    await db.delete(stepLeases).where(and(eq(stepLeases.runId, runId), eq(stepLeases.owner, owner)));
  },
};

/**
 * Removes the leases whose owner stopped renewing them while their run still runs (it died), and
 * returns their runs. One statement: of several instances sweeping at once, one gets each run.
 */
export async function takeDeadStepLeases(): Promise<{ runId: string; owner: string }[]> {
  const db = await getDb();
  const running = db.select({ id: runs.id }).from(runs).where(eq(runs.status, "running"));
  return db
    .delete(stepLeases)
    .where(and(lt(stepLeases.expiresAt, sql`now()`), inArray(stepLeases.runId, running)))
    .returning({ runId: stepLeases.runId, owner: stepLeases.owner });
}
