import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// What a deleted document's run writes to the world after its purge (a step on its way out, a
// queued delivery replaying it) is purged again while the deletion is recent: on a real embedded
// database (PGlite in a throwaway folder) and the local world's files beside it.
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-document-deletion-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const { deletedRuns } = await import("@/server/db/schema");
const { purgeLateWrites } = await import("./document-deletion");

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A file the local world keeps for `runId` (its event log), as a late write leaves it. */
function lateEvent(runId: string): string {
  const path = join(dataDir, "workflow", "events", `${runId}-evnt_late.json`);
  mkdirSync(join(dataDir, "workflow", "events"), { recursive: true });
  writeFileSync(path, JSON.stringify({ runId, eventType: "step_completed", result: "secret text" }));
  return path;
}

describe("purgeLateWrites", () => {
  it("removes what a recently deleted document's run wrote after its purge, and only while the deletion is recent", async () => {
    const db = await getDb();
    const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);
    const runs = {
      // Deleted a minute ago: its own purge is done, a write since is late.
      recent: "wrun_01M859RZ18GSGXFTNWWTCNBPKW",
      // Deleted a moment ago: the deletion's own purge may still be waiting for the run to stop.
      stopping: "wrun_01M859RZ8W0D62FQM3A6JC6MF1",
      // Deleted long ago: the retention sweep's to purge again, not this loop's.
      old: "wrun_01M859S0A1B2C3D4E5F6G7H8J9",
    };
    await db.insert(deletedRuns).values([
      { runId: runs.recent, deletedAt: secondsAgo(60) },
      { runId: runs.stopping, deletedAt: secondsAgo(1) },
      { runId: runs.old, deletedAt: secondsAgo(600) },
    ]);
    const files = {
      recent: lateEvent(runs.recent),
      stopping: lateEvent(runs.stopping),
      old: lateEvent(runs.old),
    };

    expect(await purgeLateWrites()).toBe(1);
    expect(existsSync(files.recent)).toBe(false);
    expect(existsSync(files.stopping)).toBe(true);
    expect(existsSync(files.old)).toBe(true);
    // Nothing left to remove: the next round finds nothing.
    expect(await purgeLateWrites()).toBe(0);
  });
});
