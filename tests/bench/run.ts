// `pnpm bench`: starts the production build on loopback with the offline
// model at full speed and a headless client that acts like the browser, then
// prints the agent-loop figures and writes them to results/latest.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { firstFrame, textThroughput, toolRoundTrip } from "./agent-loop.ts";
import { startServer } from "./server.ts";

const port = Number(process.env.BENCH_PORT ?? 3400);
const server = await startServer(port, { OFFLINE_MODEL_WORD_DELAY_MS: "0" });
try {
  const client = await new CoauthorClient(server.baseURL).signIn();
  const first = await firstFrame(client, 10);
  const trips = [
    await toolRoundTrip(client, 10),
    await toolRoundTrip(client, 30),
    await toolRoundTrip(client, 100),
  ];
  const throughput = await textThroughput(client, 5_000);
  const results = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    firstFrame: first,
    toolRoundTrip: trips,
    throughput,
  };

  console.log("\nCoauthor agent loop (local world, offline model at 0 ms/word, loopback)\n");
  console.table({
    "first frame, cold (ms)": first.coldFirstFrameMs,
    "first text-delta, cold (ms)": first.coldFirstDeltaMs,
    "first frame, warm median (ms)": first.warmFirstFrameMedianMs,
    "first text-delta, warm median (ms)": first.warmFirstDeltaMedianMs,
    "first text-delta, warm p95 (ms)": first.warmFirstDeltaP95Ms,
  });
  console.table(
    trips.map((t) => ({ "tool calls": t.calls, "round trip median (ms)": t.medianMs, "p95 (ms)": t.p95Ms })),
  );
  console.table({ ...throughput });
  const dir = join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${join(dir, "latest.json")}`);
} finally {
  await server.stop();
}
