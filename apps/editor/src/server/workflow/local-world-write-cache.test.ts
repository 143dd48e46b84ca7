import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { getWorld } from "workflow/runtime";
import { z } from "zod";

// The local world remembers the paths it wrote, to refuse a second write of one quickly. Upstream
// (4.4.1) it remembers every path for the life of the process — every event, step record and stream
// chunk of every run, so a long-lived server's memory grows with all the work it ever did. Patched
// (patches/@workflow__world-local@4.4.1.patch) it is emptied at 10,000 paths; a write of a known
// path is still refused, from the disk.

const dataDir = mkdtempSync(join(tmpdir(), "coauthor-world-write-cache-"));
process.env.WORKFLOW_LOCAL_DATA_DIR = dataDir;
const RUN = "wrun_01M8G2D1EKGB6TPKFQ9RFQN1KM";
const STREAM = `strm_${RUN.slice("wrun_".length)}_user`;
const LIMIT = 10_000;

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * The world's own file module, the instance its writes go through (the package exports only its
 * index). Found through a dependency of the app's that depends on the world: every dependent gets
 * the same copy.
 */
async function worldFiles() {
  const app = createRequire(new URL("../../../package.json", import.meta.url));
  const index = createRequire(app.resolve("@workflow/world-postgres")).resolve("@workflow/world-local");
  const module: unknown = await import(pathToFileURL(join(dirname(index), "fs.js")).href);
  return z
    .object({
      createdFilesCacheSize: z.function({ input: [], output: z.number() }),
      write: z.function({ input: [z.string(), z.string()], output: z.promise(z.void()) }),
    })
    .parse(module);
}

describe("the local world's cache of written paths", () => {
  it("stays bounded however much the server writes, and a known path is still refused", async () => {
    const files = await worldFiles();
    const world = getWorld();
    if (!world.writeToStreamMulti) throw new Error("the local world writes no chunks in batches");
    const once = join(dataDir, "once.json");
    await files.write(once, "{}");
    for (let written = 0; written < LIMIT + 500; written += 500) {
      await world.writeToStreamMulti(
        STREAM,
        RUN,
        Array.from({ length: 500 }, (_, i) => `frame ${written + i};`),
      );
      expect(files.createdFilesCacheSize()).toBeLessThanOrEqual(LIMIT);
    }
    // Every chunk is a file of its own: the cache saw more paths than it holds.
    expect(readdirSync(join(dataDir, "streams", "chunks")).length).toBeGreaterThan(LIMIT);
    // Forgotten by the cache by now; the disk still says it exists.
    await expect(files.write(once, "{}")).rejects.toThrow(/already exists/);
  });
});
