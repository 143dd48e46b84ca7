import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The step owner leases on a real embedded database (PGlite in a throwaway folder, migrated like
// the app's). An owner's death is played by moving its lease's expiry into the past.
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-step-leases-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");
const { databaseStepLeaseStore: store, takeDeadStepLeases } = await import("./step-leases");

const RUNNING = "wrun_01M859RZ18GSGXFTNWWTCNBPKW";
const ENDED = "wrun_01M859RZ8W0D62FQM3A6JC6MF1";
const TTL = 60_000;

async function expire(runId: string) {
  const db = await getDb();
  await db
    .update(schema.stepLeases)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(schema.stepLeases.runId, runId));
}

beforeAll(async () => {
  const db = await getDb();
  await db.insert(schema.users).values({ id: "owner", name: "Owner", email: "owner@example.test" });
  await db.insert(schema.documents).values({ id: "doc", ownerId: "owner", title: "T" });
  const run = { documentId: "doc", userId: "owner", prompt: "p", model: "offline" };
  await db.insert(schema.runs).values([
    { ...run, id: RUNNING, status: "running" as const },
    { ...run, id: ENDED, status: "done" as const },
  ]);
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("step owner leases in the database", () => {
  it("go to one owner at a time; a live holder is named, with the time its lease has left", async () => {
    expect(await store.acquire(RUNNING, "instance-a", TTL)).toEqual({ acquired: true });
    const refused = await store.acquire(RUNNING, "instance-b", TTL);
    expect(refused).toMatchObject({ acquired: false, holder: { owner: "instance-a" } });
    if (refused.acquired) throw new Error("unreachable");
    expect(refused.holder.expiresInMs).toBeGreaterThan(TTL - 10_000);
    expect(refused.holder.expiresInMs).toBeLessThanOrEqual(TTL);
    // Only the holder renews or releases it.
    expect(await store.renew(RUNNING, "instance-b", TTL)).toBe(false);
    expect(await store.renew(RUNNING, "instance-a", TTL)).toBe(true);
    await store.release(RUNNING, "instance-b");
    expect(await store.acquire(RUNNING, "instance-b", TTL)).toMatchObject({ acquired: false });
    await store.release(RUNNING, "instance-a");
    expect(await store.acquire(RUNNING, "instance-b", TTL)).toEqual({ acquired: true });
    await store.release(RUNNING, "instance-b");
  });

  it("pass to another owner once expired, and the old owner's renewal then fails", async () => {
    expect(await store.acquire(RUNNING, "instance-a", TTL)).toEqual({ acquired: true });
    await expire(RUNNING);
    expect(await store.acquire(RUNNING, "instance-b", TTL)).toEqual({ acquired: true });
    expect(await store.renew(RUNNING, "instance-a", TTL)).toBe(false);
    await store.release(RUNNING, "instance-b");
  });

  it("of dead owners are taken once, and only for runs still running", async () => {
    await store.acquire(RUNNING, "dead-a", TTL);
    await store.acquire(ENDED, "dead-b", TTL);
    expect(await takeDeadStepLeases()).toEqual([]);
    await expire(RUNNING);
    await expire(ENDED);
    expect(await takeDeadStepLeases()).toEqual([{ runId: RUNNING, owner: "dead-a" }]);
    // Taken: the next sweep (on any instance) finds nothing, and the step's next executor gets it.
    expect(await takeDeadStepLeases()).toEqual([]);
    expect(await store.acquire(RUNNING, "instance-b", TTL)).toEqual({ acquired: true });
  });
});
