// `node bench/profile-trip.ts [calls] [--postgres] [--concurrent | --starts]`: one run of `calls` tool
// calls (with `--concurrent`: the bench's 50 simultaneous runs by 10 users, 5 calls each; with
// `--starts`: `calls` runs of one call each, where a run's start and end dominate) on a server whose CPU is
// profiled over that work only (V8's profiler, started and stopped through the inspector, so start-up
// and warm-up are not in it). Prints the server's busy CPU per round trip, then per round trip: the
// packages and our modules (read through the bundle's source maps) with the native and
// Node-internal time they caused, and the top functions by inclusive and by self time. Not part of
// `npm run bench`: a tool for finding hot spots before optimising one.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { toolRoundTrip } from "./agent-loop.ts";
import { concurrentRuns } from "./concurrency.ts";
import { round } from "./stats.ts";
import { startToolServer } from "./tool-server.ts";

const callFrameSchema = z.object({
  functionName: z.string(),
  url: z.string(),
  lineNumber: z.number(),
  columnNumber: z.number(),
});
type CallFrame = z.infer<typeof callFrameSchema>;
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

// The server runs Next's bundle chunks, whose names say little ("_09-4p5tceal1_._.js"): each frame
// is read through its chunk's source map, to the package (or our module) and line it came from.
const sourceMaps = new Map<string, SourceMap | undefined>();
function sourceMapOf(url: string): SourceMap | undefined {
  if (!sourceMaps.has(url)) {
    const file = url.startsWith("file://") ? fileURLToPath(url) : url;
    const mapFile = `${file}.map`;
    sourceMaps.set(
      url,
      file.startsWith("/") && existsSync(mapFile)
        ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")))
        : undefined,
    );
  }
  return sourceMaps.get(url);
}

/**
 * A source path (relative to the chunk's folder, as maps give it) as a reader names it: the package
 * (`ai`, `@workflow/core`) or our file from its package.
 */
function sourceName(source: string, chunkFile: string): { owner: string; file: string } {
  const decoded = decodeURIComponent(source);
  const path = isAbsolute(decoded) ? decoded : resolve(dirname(chunkFile), decoded);
  const inPackage = path.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/);
  if (inPackage) return { owner: inPackage[1] ?? path, file: `${inPackage[1]}/${inPackage[2]}` };
  const ours = path.match(/((?:apps|packages)\/[^/]+)\/(.*)$/);
  if (ours) return { owner: ours[1] ?? path, file: `${ours[1]}/${ours[2]}` };
  return { owner: path, file: path };
}

/** Where a frame's code came from (through the source map), or its file as the profile names it. */
function originOf(frame: CallFrame): { owner: string; where: string } | undefined {
  if (!frame.url || frame.url.startsWith("node:") || !frame.url.includes("/")) return undefined;
  const entry = sourceMapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry && "originalSource" in entry) {
    const chunkFile = frame.url.startsWith("file://") ? fileURLToPath(frame.url) : frame.url;
    const { owner, file } = sourceName(entry.originalSource, chunkFile);
    return { owner, where: `${file}:${entry.originalLine + 1}` };
  }
  const file = frame.url.split("/").slice(-1)[0] ?? frame.url;
  return { owner: file, where: `${file}:${frame.lineNumber}` };
}

const frameKey = (frame: CallFrame) =>
  `${frame.functionName || "(anonymous)"} ${originOf(frame)?.where ?? `${frame.url}:${frame.lineNumber}`}`;

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
    const key = frameKey(frame);
    self.set(key, (self.get(key) ?? 0) + ms);
    // Charged to the nearest frame on the stack that is code of ours or a package's (a native
    // function or Node's own JS is charged to whoever called it).
    let owner = "(native, no caller)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const callFrame = byId.get(at)?.callFrame;
      const origin = callFrame && originOf(callFrame);
      if (!origin) continue;
      owner = origin.owner;
      break;
    }
    packages.set(owner, (packages.get(owner) ?? 0) + ms);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const callFrame = byId.get(at)?.callFrame;
      if (!callFrame) break;
      onStack.add(frameKey(callFrame));
    }
    for (const key of onStack) inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  });
  if (busy < 100) return; // the start script: idle
  const perTrip = (ms: number) =>
    `${round(ms / trips)
      .toString()
      .padStart(6)} ms/trip`;
  console.log(`\nbusy ${round(busy)} ms = ${perTrip(busy)}`);
  console.log("\npackages and our modules, with the native and Node-internal time they caused:");
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
