// `node bench/profile-trip.ts [calls] [--postgres] [--concurrent | --starts]`: one run of `calls` tool
// calls (with `--concurrent`: the bench's 50 simultaneous runs by 10 users, 5 calls each; with
// `--starts`: `calls` runs of one call each, where a run's start and end dominate) on a server whose CPU is
// profiled over that work only (V8's profiler, started and stopped through the inspector, so start-up
// and warm-up are not in it). Prints the server's busy CPU per round trip, then per round trip: the
// files (bundle chunks name the packages they hold) with the native and Node-internal time they
// caused, and the top functions by inclusive and by self time. Not part of `npm run bench`: a tool
// for finding hot spots before optimising one.
import { z } from "zod";
import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { toolRoundTrip } from "./agent-loop.ts";
import { concurrentRuns } from "./concurrency.ts";
import { round } from "./stats.ts";
import { startToolServer } from "./tool-server.ts";

const callFrameSchema = z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() });
const profileSchema = z.object({
  nodes: z.array(
    z.object({ id: z.number(), callFrame: callFrameSchema, children: z.array(z.number()).optional() }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});
type Profile = z.infer<typeof profileSchema>;

/** One inspector session (Chrome DevTools Protocol over the WebSocket `node --inspect` opens). */
class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private readonly socket: WebSocket;
  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = z
        .object({ id: z.number().optional(), result: z.unknown() })
        .parse(JSON.parse(String(event.data)));
      if (message.id !== undefined) this.pending.get(message.id)?.(message.result);
    });
  }
  static open(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.addEventListener("open", () => resolve(new Inspector(socket)));
      socket.addEventListener("error", () => reject(new Error(`inspector ${url} did not open`)));
    });
  }
  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.pending.set(id, resolve));
  }
  close() {
    this.socket.close();
  }
}

function report(profile: Profile, trips: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!frame || frame.functionName === "(idle)") return;
    busy += ms;
    const file = frame.url.split("/").slice(-1)[0] ?? "";
    const key = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    // Charged to the nearest frame on the stack that is code of ours or a package's (a native
    // function or Node's own JS is charged to whoever called it).
    let owner = "(native, no caller)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? "";
      if (!url || url.startsWith("node:") || !url.includes("/")) continue;
      owner = url.split("/").slice(-1)[0] ?? url;
      break;
    }
    packages.set(owner, (packages.get(owner) ?? 0) + ms);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const callFrame = byId.get(at)?.callFrame;
      if (!callFrame) break;
      onStack.add(
        `${callFrame.functionName || "(anonymous)"} ${callFrame.url.split("/").slice(-1)[0]}:${callFrame.lineNumber}`,
      );
    }
    for (const key of onStack) inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  });
  if (busy < 100) return; // the start script: idle
  const perTrip = (ms: number) =>
    `${round(ms / trips)
      .toString()
      .padStart(6)} ms/trip`;
  console.log(`\nbusy ${round(busy)} ms = ${perTrip(busy)}`);
  console.log("\nfiles, with the native and Node-internal time they caused:");
  for (const [where, ms] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`  ${perTrip(ms)}  ${where}`);
  }
  console.log("\nfunctions (inclusive):");
  for (const [key, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`  ${perTrip(ms)}  ${key}`);
  }
  console.log("\nfunctions (self):");
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`  ${perTrip(ms)}  ${key}`);
  }
}

const calls = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 200);
const env = { ...BENCH_SERVER_ENV, NODE_OPTIONS: "--inspect=127.0.0.1:0" };
const { server, dispose } = await startToolServer("profile", env);
try {
  const client = await new CoauthorClient(server.url).signIn();
  await toolRoundTrip(client, 20); // warm-up
  // Every node process of the server (start script, server) opened an inspector; profile them all.
  const urls = [...server.log.matchAll(/Debugger listening on (ws:\/\/\S+)/g)].map((match) => match[1] ?? "");
  const inspectors = await Promise.all(urls.map((url) => Inspector.open(url)));
  for (const inspector of inspectors) {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.start");
  }
  const trips = await profiledWork(client, server);
  for (const inspector of inspectors) {
    const stopped = z.object({ profile: profileSchema }).parse(await inspector.send("Profiler.stop"));
    inspector.close();
    report(stopped.profile, trips);
  }
} finally {
  await dispose();
}

/** The work profiled: one run of `calls` tool calls, `--concurrent` the bench's 50 runs at once, `--starts` `calls` one-call runs; returns its round trips. */
async function profiledWork(client: CoauthorClient, server: AppServer): Promise<number> {
  if (process.argv.includes("--concurrent")) {
    const load = await concurrentRuns({ urls: [server.url], pids: () => server.pids() }, 50, 10, 5);
    console.log(
      `50 concurrent runs of 5 calls: ${load.outcomes}, round trip p50 ${load.roundTripP50Ms} ms, p99 ${load.roundTripP99Ms} ms`,
    );
    return 50 * 5;
  }
  if (process.argv.includes("--starts")) {
    for (let run = 0; run < calls; run++) await toolRoundTrip(client, 1);
    console.log(`${calls} runs of one call (figures per run below)`);
    return calls;
  }
  const trip = await toolRoundTrip(client, calls);
  console.log(`round trip @${calls}: median ${trip.medianMs} ms, ${trip.reached} calls answered`);
  return trip.reached;
}
