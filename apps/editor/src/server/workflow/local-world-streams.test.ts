import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import fsPromises from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getWorld } from "workflow/runtime";

// The local world's stream readers, as the server runs them (scripts/start.mjs sets
// WORKFLOW_LOCAL_STREAM_POLL_MS=0, read by patches/@workflow__world-local@4.4.1.patch): chunks
// written in this process reach an open reader at once, and an open reader does not list the chunk
// folder again and again. Unpatched, every open reader lists the whole folder — every run's log for
// RUN_LOG_RETENTION_DAYS — every 100 ms: with 25,000 chunk files, 50 runs at once did not finish in
// 90 s (`bench/history-growth.ts`).

const dataDir = mkdtempSync(join(tmpdir(), "coauthor-world-streams-"));
process.env.WORKFLOW_LOCAL_DATA_DIR = dataDir;
process.env.WORKFLOW_LOCAL_STREAM_POLL_MS = "0";
const chunks = join(dataDir, "streams", "chunks");
const RUN = "wrun_01M8G2D1EKGB6TPKFQ9RFQN1KM";
const STREAM = `strm_${RUN.slice("wrun_".length)}_user`;

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Reads what `reader` gives until `text` has all come, or fails after 2 s. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  const decoder = new TextDecoder();
  let read = "";
  const deadline = Date.now() + 2_000;
  while (!read.includes(text)) {
    const next = await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`not read within 2 s: ${text}`)), deadline - Date.now()),
      ),
    ]);
    if (next.done) throw new Error(`the stream ended before ${text}`);
    read += decoder.decode(next.value, { stream: true });
  }
  return read;
}

describe("the local world's stream readers in the server", () => {
  it("get chunks written in this process at once, and list the chunk folder once, not on a timer", async () => {
    // Other runs' logs, kept for their retention.
    mkdirSync(chunks, { recursive: true });
    for (let i = 0; i < 2_000; i++) {
      const other = `01K${String(i).padStart(23, "0")}`;
      writeFileSync(join(chunks, `strm_${other}_user-chnk_${other}.bin`), "x");
    }
    const world = getWorld();
    await world.writeToStream(STREAM, RUN, "first frame;");
    const listings = vi.spyOn(fsPromises, "readdir");
    const reader = (await world.readFromStream(STREAM)).getReader();
    expect(await readUntil(reader, "first frame;")).toBe("first frame;");
    await world.writeToStream(STREAM, RUN, "second frame;");
    expect(await readUntil(reader, "second frame;")).toBe("second frame;");
    // Ten of the old polling periods with the reader open.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ofChunks = listings.mock.calls.filter(([folder]) => String(folder) === chunks);
    expect(ofChunks).toHaveLength(1);
    listings.mockRestore();
    await reader.cancel();
  });
});
