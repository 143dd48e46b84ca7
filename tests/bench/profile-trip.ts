// `node bench/profile-trip.ts [calls]`: one run of `calls` tool calls on a server started with
// V8's CPU profiler, then where the server's CPU went, by self time: the top functions and their
// files (the production build's chunks name the packages they bundle). Not part of `npm run
// bench`: a tool for finding hot spots before optimising one.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { toolRoundTrip } from "./agent-loop.ts";
import { round } from "./stats.ts";

const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

const calls = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(join(tmpdir(), "coauthor-profile-"));
const server = new AppServer({
  ...BENCH_SERVER_ENV,
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
});
await server.start();
let trip: Awaited<ReturnType<typeof toolRoundTrip>> | undefined;
try {
  const client = await new CoauthorClient(server.url).signIn();
  await toolRoundTrip(client, 20); // warm-up
  trip = await toolRoundTrip(client, calls);
} finally {
  // A graceful exit writes the profiles (SIGKILL would not).
  await server.kill("SIGTERM");
  await server.dispose();
}
console.log(`round trip @${calls}: median ${trip?.medianMs} ms`);
for (const file of readdirSync(dir)) {
  const profile = profileSchema.parse(JSON.parse(readFileSync(join(dir, file), "utf8")));
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    if (!frame || frame.functionName === "(idle)") return;
    const file = frame.url.split("/").slice(-1)[0] ?? "";
    const key = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  if (busy < 100) continue; // the start script: idle
  console.log(`\n${file}: ${round(busy)} ms busy of ${round(total)} ms; top self time:`);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
  for (const [key, ms] of top) console.log(`  ${round(ms).toString().padStart(8)} ms  ${key}`);
}
