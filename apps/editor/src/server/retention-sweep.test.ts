import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The sweep and the tool-result claim on a real embedded database (PGlite in a throwaway folder,
// migrated like the app's), with the local world's folder inside it.
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-retention-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
// The world the sweep lists is the local one in this folder (never a build's own).
process.env.WORKFLOW_LOCAL_DATA_DIR = join(dataDir, "workflow");
process.env.RUN_LOG_RETENTION_DAYS = "30";
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");
const { sweepRetention } = await import("./retention-sweep");
const { claimTokenUse } = await import("@/server/agent/claim-token");

const DAY = 86_400_000;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);
// World run ids (the purge only takes these).
const OLD = "wrun_01M859RZ18GSGXFTNWWTCNBPKW";
const RECENT = "wrun_01M859RZ8W0D62FQM3A6JC6MF1";
const DELETED = "wrun_01M859RZBR98WWZKKH8RG6KP04";
const ORPHAN = "wrun_01M859RZBR98WWZKKH8RG6KP06";
const RECENT_ORPHAN = "wrun_01M859RZBR98WWZKKH8RG6KP07";

beforeAll(async () => {
  const db = await getDb();
  await db.insert(schema.users).values({ id: "owner", name: "Owner", email: "owner@example.test" });
  await db.insert(schema.documents).values({ id: "doc", ownerId: "owner", title: "T" });
  const run = {
    documentId: "doc",
    userId: "owner",
    prompt: "summarize",
    model: "offline",
    status: "limit" as const,
    conversation: [{ role: "user", content: "secret" }],
  };
  await db.insert(schema.runs).values([
    { ...run, id: OLD, createdAt: daysAgo(40), finishedAt: daysAgo(40) },
    { ...run, id: RECENT, createdAt: daysAgo(1), finishedAt: daysAgo(1) },
  ]);
  // Results their runs took while they ran (the runs have ended since: written as they are stored).
  await db.insert(schema.toolCallResults).values(
    [OLD, RECENT].map((runId) => ({
      jti: `jti-${runId}`,
      runId,
      toolCallId: "c1",
      bodyHash: "h",
      result: { text: "secret" },
    })),
  );
  await db.insert(schema.rateLimitPoints).values([
    { key: "expired", points: 1, expire: new Date(now.getTime() - 60_000) },
    { key: "live", points: 1, expire: new Date(now.getTime() + 60_000) },
  ]);
  // World runs without a row of ours: an old one (its document deleted long ago) and a recent one.
  writeWorldRun(ORPHAN, daysAgo(40));
  writeWorldRun(RECENT_ORPHAN, daysAgo(1));
  // A run of a deleted document whose step saved a checkpoint on its way out.
  await db.insert(schema.deletedRuns).values({ runId: DELETED, deletedAt: daysAgo(2) });
  await db.insert(schema.agentRunCheckpoints).values({ runId: DELETED, segment: 0, state: { secret: true } });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A finished run as the local world stores it, with one event: what a run of a document deleted before deletion purged the world left behind. */
function writeWorldRun(runId: string, createdAt: Date): void {
  const world = join(dataDir, "workflow");
  mkdirSync(join(world, "runs"), { recursive: true });
  mkdirSync(join(world, "events"), { recursive: true });
  const at = createdAt.toISOString();
  const run = {
    runId,
    deploymentId: "dpl_local@4.4.1",
    workflowName: "workflow//@coauthor/agent-workflow/workflow@0.1.0//agentWorkflow",
    specVersion: 3,
    executionContext: {},
    input: { __type: "Uint8Array", data: Buffer.from("secret input").toString("base64") },
    createdAt: at,
    status: "completed",
    startedAt: at,
    completedAt: at,
    updatedAt: at,
  };
  writeFileSync(join(world, "runs", `${runId}.json`), JSON.stringify(run));
  writeFileSync(join(world, "events", `${runId}-evnt_01.json`), "{}");
}

describe("retention sweep", () => {
  it("removes old run logs once however many sweeps run at once, and keeps recent ones", async () => {
    const reports = await Promise.all([sweepRetention(now), sweepRetention(now)]);
    expect(reports.reduce((sum, report) => sum + report.runLogs, 0)).toBe(1);
    const db = await getDb();
    const results = await db
      .select({ runId: schema.toolCallResults.runId })
      .from(schema.toolCallResults)
      .where(inArray(schema.toolCallResults.runId, [OLD, RECENT]));
    expect(results.map((row) => row.runId)).toEqual([RECENT]);
    // The run itself stays for History, marked as having no log any more.
    const [old] = await db.select().from(schema.runs).where(eq(schema.runs.id, OLD));
    expect(old?.logsPurgedAt).toBeInstanceOf(Date);
    // The conversation kept for Continue goes with the log: it holds what the tools read.
    expect(old?.conversation).toBeNull();
    const [recent] = await db.select().from(schema.runs).where(eq(schema.runs.id, RECENT));
    expect(recent?.logsPurgedAt).toBeNull();
    expect(recent?.conversation).toEqual([{ role: "user", content: "secret" }]);
  });

  it("purges the world's runs from before the cutoff, also those with no row of ours, and keeps recent ones", () => {
    const file = (folder: string, name: string) => existsSync(join(dataDir, "workflow", folder, name));
    expect(file("runs", `${ORPHAN}.json`)).toBe(false);
    expect(file("events", `${ORPHAN}-evnt_01.json`)).toBe(false);
    expect(file("runs", `${RECENT_ORPHAN}.json`)).toBe(true);
    expect(file("events", `${RECENT_ORPHAN}-evnt_01.json`)).toBe(true);
  });

  it("drops expired rate-limit counters only", async () => {
    const db = await getDb();
    const keys = await db.select({ key: schema.rateLimitPoints.key }).from(schema.rateLimitPoints);
    expect(keys.map((row) => row.key)).toEqual(["live"]);
  });

  it("clears what a deleted document's run left and forgets its tombstone after a day", async () => {
    const db = await getDb();
    expect(await db.select().from(schema.agentRunCheckpoints)).toEqual([]);
    expect(await db.select().from(schema.deletedRuns)).toEqual([]);
  });
});

describe("tool result claims", () => {
  it("are refused for a run that no longer exists (its document was deleted), storing nothing", async () => {
    const outcome = await claimTokenUse({
      jti: "jti-missing",
      runId: "wrun_01M859RZBR98WWZKKH8RG6KP05",
      userId: "owner",
      documentId: "doc",
      toolCallId: "c1",
      bodyHash: "h",
      result: { text: "secret" },
    });
    expect(outcome).toBe("refused");
    const db = await getDb();
    expect(
      await db.select().from(schema.toolCallResults).where(eq(schema.toolCallResults.jti, "jti-missing")),
    ).toEqual([]);
  });
});
