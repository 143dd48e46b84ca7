// `node bench/history-growth.ts [files]`: the first text-delta on a fresh local world, then with
// `files` (default 25,000) stream chunk files of other runs in it — what a month of ended runs
// leaves, since their logs stay for RUN_LOG_RETENTION_DAYS — then with as many event files too,
// which is what those runs left before an ended run's engine state was purged. The
// local world lists a whole folder to find one run's files, so these figures grow with history.
// Not part of `npm run bench`: the files are stand-ins named as the world names them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { firstDelta } from "./agent-loop.ts";

const files = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 25_000);
const WARM_RUNS = 20;

/** Writes `count` files named `name(ulid)` into `folder`, each for another (made-up) run. */
function fill(folder: string, count: number, name: (ulid: string) => string) {
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < count; i++)
    writeFileSync(join(folder, name(`01K${String(i).padStart(23, "0")}`)), "{}");
}

const server = new AppServer(BENCH_SERVER_ENV);
await server.start();
try {
  const client = await new CoauthorClient(server.url).signIn();
  const report = (label: string, figures: { warmMedianMs: number; warmP95Ms: number }) =>
    console.log(`${label.padEnd(44)} warm median ${figures.warmMedianMs} ms, p95 ${figures.warmP95Ms} ms`);
  report("first text-delta, fresh world", await firstDelta(client, WARM_RUNS));
  const world = join(server.dataDir, "workflow");
  fill(join(world, "streams", "chunks"), files, (ulid) => `strm_${ulid}_user-chnk_${ulid}.bin`);
  report(`+ ${files} stream chunk files of other runs`, await firstDelta(client, WARM_RUNS));
  fill(join(world, "events"), files, (ulid) => `wrun_${ulid}-evnt_${ulid}.json`);
  report(`+ ${files} event files of other runs`, await firstDelta(client, WARM_RUNS));
} finally {
  await server.dispose();
}
