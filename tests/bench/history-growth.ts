// `node bench/history-growth.ts [files]`: the first text-delta on a fresh local world, then with
// `files` (default 25,000) stream chunk files of other runs in it — what a month of ended runs
// leaves, since their logs stay for RUN_LOG_RETENTION_DAYS — then with as many event files too,
// which is what those runs left before an ended run's engine state was purged; then 50 runs at once
// by 10 users in a world holding those chunk files, as the server runs it and with its stream
// readers polling the chunk folder every 100 ms as unpatched ones do (docs/how-it-works.md). The
// local world lists a whole folder to find one run's files, so these figures grow with history.
// Not part of `npm run bench`: the files are stand-ins named as the world names them.
import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { firstDelta } from "./agent-loop.ts";
import { concurrentRuns } from "./concurrency.ts";

const files = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 25_000);
const WARM_RUNS = 20;

/** A stream chunk file of another (made-up) run, named as the world names them. */
const chunkFile = (ulid: string) => `strm_${ulid}_user-chnk_${ulid}.bin`;

/** Writes `count` files named `name(ulid)` into `folder`, each for another (made-up) run. */
async function fill(folder: string, count: number, name: (ulid: string) => string) {
  mkdirSync(folder, { recursive: true });
  // Written a batch at a time, not synchronously: a bench blocked for seconds misses the server
  // closing its idle keep-alive sockets, and its next request fails on one ("other side closed").
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, i) =>
      writeFile(join(folder, name(`01K${String(start + i).padStart(23, "0")}`)), "{}"),
    );
    await Promise.all(batch);
  }
}

/** The bench's 50 runs at once on a fresh server whose world already holds `files` chunk files. */
async function loadWithHistory(label: string, env: Record<string, string>) {
  const loaded = new AppServer({ ...BENCH_SERVER_ENV, ...env });
  await loaded.start();
  try {
    const world = join(loaded.dataDir, "workflow");
    await fill(join(world, "streams", "chunks"), files, chunkFile);
    const load = await concurrentRuns({ urls: [loaded.url], pids: () => loaded.pids() }, 50, 10, 5, 90_000);
    console.log(
      `${label.padEnd(44)} ${load.completed}/50 done in ${load.seconds} s, round trip p50 ${load.roundTripP50Ms} ms, p99 ${load.roundTripP99Ms} ms`,
    );
  } finally {
    await loaded.dispose();
  }
}

const server = new AppServer(BENCH_SERVER_ENV);
await server.start();
try {
  const client = await new CoauthorClient(server.url).signIn();
  const report = (label: string, figures: { warmMedianMs: number; warmP95Ms: number }) =>
    console.log(`${label.padEnd(44)} warm median ${figures.warmMedianMs} ms, p95 ${figures.warmP95Ms} ms`);
  report("first text-delta, fresh world", await firstDelta(client, WARM_RUNS));
  const world = join(server.dataDir, "workflow");
  await fill(join(world, "streams", "chunks"), files, chunkFile);
  report(`+ ${files} stream chunk files of other runs`, await firstDelta(client, WARM_RUNS));
  await fill(join(world, "events"), files, (ulid) => `wrun_${ulid}-evnt_${ulid}.json`);
  report(`+ ${files} event files of other runs`, await firstDelta(client, WARM_RUNS));
} finally {
  await server.dispose();
}
await loadWithHistory(`50 runs, ${files} chunk files`, {});
await loadWithHistory(`50 runs, ${files} chunk files, readers polling`, {
  WORKFLOW_LOCAL_STREAM_POLL_MS: "100",
});
