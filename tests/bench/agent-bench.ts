// The agent-loop section of `npm run bench`: Coauthor and the naive loop on the product build, on
// the local world (the `server` run.ts started) and on the Postgres world (two fresh instances on
// the machine's PostgreSQL, a database of their own, dropped after); then, last of the whole
// bench, the peer (WorkflowAgent) the same way on a build of its own.
import { spawn } from "node:child_process";
import { z } from "zod";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { startInstances } from "../lib/instances.ts";
import { firstDelta, textThroughput } from "./agent-loop.ts";
import { type AgentResults, MODEL_FIRST_TOKEN_MS } from "./agent-table.ts";
import { concurrentRuns, loadPasses, type RunTarget } from "./concurrency.ts";
import { crossInstanceTrips } from "./cross-instance.ts";
import type { physicalFloor } from "./floor.ts";
import { idleTransactionsPerSecond } from "./idle-load.ts";
import { naiveLoop } from "./naive.ts";
import { peerConcurrent } from "./peer.ts";
import type { BenchSizes } from "./sizes.ts";
import { coauthorFigures, peerFigures } from "./worlds.ts";

/** The server settings of every measured instance: the loop, not the abuse limits. */
export const BENCH_SERVER_ENV: Record<string, string> = {
  OFFLINE_MODEL_WORD_DELAY_MS: "0",
  COAUTHOR_BENCH: "1",
  AGENT_MAX_TURNS_PER_STEP: "1000",
  AGENT_MAX_TOOL_CALLS_PER_RUN: "10000",
  RATE_LIMIT_RUNS_PER_MINUTE: "10000",
  RATE_LIMIT_CALLBACKS_PER_MINUTE: "100000",
  MAX_CONCURRENT_RUNS_PER_USER: "1000",
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: "1000",
  // Every measured user signs up from this one address.
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
};

/** The environment of the peer's build and of the servers that run it (next.config.ts). */
const PEER_BUILD_ENV = { COAUTHOR_BENCH_PEER_BUILD: "1" };

/** What the bench-only GC route answers: the process's memory after a full collection. */
const memoryAfterGcSchema = z.object({ rss: z.number(), heapUsed: z.number() });

/** A full collection on every instance (the bench-only route); their live heap together (bytes). */
const collectGarbage = (urls: string[]) => async () => {
  let heap = 0;
  for (const url of urls) {
    const response = await fetch(`${url}/api/bench/gc`, { method: "POST" });
    if (!response.ok) throw new Error(`GC on ${url} answered ${response.status}`);
    heap += memoryAfterGcSchema.parse(await response.json()).heapUsed;
  }
  return heap;
};

const targetOf = (servers: AppServer[]): RunTarget => ({
  urls: servers.map((s) => s.url),
  pids: () => servers.flatMap((s) => s.pids()),
  gc: collectGarbage(servers.map((s) => s.url)),
});

/**
 * Builds the app a second time with the peer in it (`.next-peer`; see next.config.ts): the
 * product build leaves the peer out, since its workflow code would slow every replay of every run.
 */
async function buildPeerVariant(log: (line: string) => void): Promise<void> {
  log("building the app with the peer (.next-peer)");
  const build = spawn("pnpm", ["--filter", "@coauthor/editor", "exec", "next", "build"], {
    env: { ...process.env, ...PEER_BUILD_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  build.stdout.on("data", (chunk) => (output += chunk));
  build.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((done) => build.on("exit", done));
  if (code !== 0) throw new Error(`the peer build failed (exit ${code}):\n${output.slice(-4_000)}`);
}

/** What the agent-loop section and the peer's are told: sizes, run budget, where to log. */
export interface AgentBenchOptions {
  sizes: BenchSizes["agent"];
  budgetMs: number;
  /** `false` leaves the Postgres world out. */
  postgres: boolean;
  log: (line: string) => void;
}

/** Measures everything in AgentResults but the peer's figures (`benchPeer`). */
export async function benchAgentLoop(
  options: AgentBenchOptions & {
    server: AppServer;
    floor: Awaited<ReturnType<typeof physicalFloor>>;
    deltas: number;
  },
): Promise<AgentResults> {
  const { server, sizes, budgetMs, log } = options;
  // Coauthor and the naive loop on the product build (the server run.ts started).
  const local = { url: server.url, pids: () => server.pids() };
  log("local world: Coauthor");
  const coauthorLocal = await coauthorFigures(local, sizes, budgetMs);
  const throughput = await textThroughput(await new CoauthorClient(server.url).signIn(), options.deltas);
  log(`local world: ${sizes.waitingRuns} runs waiting on a tool call (memory)`);
  const memory = await concurrentRuns(targetOf([server]), sizes.waitingRuns, 10, 1, budgetMs);
  log(`local world: ${sizes.load.runs} concurrent runs`);
  const loadLocal = await loadPasses(targetOf([server]), sizes.load, budgetMs);
  // The naive loop runs last on this server: its long runs leave the server busy replaying them.
  log("local world: the naive loop");
  const naive = await naiveLoop(server.url, sizes, options.deltas, budgetMs);
  log(`local world: Coauthor with a model taking ${MODEL_FIRST_TOKEN_MS} ms to its first token`);
  const slowModelFirstDelta = await slowModelFigure(sizes.warmRuns, sizes.warmUpRuns);
  const results: AgentResults = {
    serverLogReplayErrors: { local: replayErrors(server.log) },
    floor: options.floor,
    runLengths: sizes.runLengths,
    coauthor: { local: coauthorLocal },
    peer: {},
    naive,
    slowModelFirstDelta,
    load: { local: { coauthor: loadLocal } },
    memory,
    throughput,
  };
  if (options.postgres) {
    await measurePostgres(results, { env: BENCH_SERVER_ENV, count: 2 }, log, async (a, both, databaseUrl) => {
      log("Postgres world: two idle instances (database load)");
      results.idleTransactionsPerSecond = await idleTransactionsPerSecond(
        databaseUrl,
        sizes.idle.settleMs,
        sizes.idle.windowMs,
      );
      log("Postgres world: Coauthor");
      results.coauthor.postgres = await coauthorFigures(instanceOf(a), sizes, budgetMs);
      log("Postgres world: round trips across two instances");
      results.crossInstance = await crossInstanceTrips(both, sizes.crossing.runs, sizes.crossing.calls);
      log(`Postgres world: ${sizes.load.runs} concurrent runs on one instance, then on two`);
      const coauthor = await loadPasses(targetOf([a]), sizes.load, budgetMs);
      results.load.postgres = { coauthor };
      results.load.twoInstances = await loadPasses(targetOf(both), sizes.load, budgetMs);
    });
  }

  return results;
}

/**
 * The first text-delta when the model takes MODEL_FIRST_TOKEN_MS to answer anything (a server of
 * its own): what a writer waits on a real service, where the planner's call and the first turn's
 * are each that long. The naive loop calls no model: with one, it would pay the time once.
 */
async function slowModelFigure(warmRuns: number, warmUpRuns: number) {
  const server = new AppServer({
    ...BENCH_SERVER_ENV,
    OFFLINE_MODEL_FIRST_TOKEN_MS: String(MODEL_FIRST_TOKEN_MS),
  });
  await server.start();
  try {
    return await firstDelta(await new CoauthorClient(server.url).signIn(), warmRuns, warmUpRuns);
  } finally {
    await server.dispose();
  }
}

/**
 * The peer's figures into `results`, on a build of its own and servers of its own. Run last: the
 * build takes a minute of the machine, and the servers measured before must not sit through it.
 */
export async function benchPeer(results: AgentResults, options: AgentBenchOptions): Promise<void> {
  const { sizes, budgetMs, log } = options;
  const { runs, calls } = sizes.peerLoad;
  await buildPeerVariant(log);
  const peerServer = new AppServer({ ...BENCH_SERVER_ENV, ...PEER_BUILD_ENV });
  await peerServer.start();
  try {
    log("local world: the peer (WorkflowAgent)");
    results.peer.local = await peerFigures(instanceOf(peerServer), sizes, budgetMs);
    results.load.local.peer = await peerConcurrent(peerServer.url, runs, calls, budgetMs);
  } finally {
    await peerServer.dispose();
  }
  if (options.postgres) {
    await measurePostgres(
      results,
      { env: { ...BENCH_SERVER_ENV, ...PEER_BUILD_ENV }, count: 1 },
      log,
      async (a) => {
        log("Postgres world: the peer (WorkflowAgent)");
        results.peer.postgres = await peerFigures(instanceOf(a), sizes, budgetMs);
        const load = results.load.postgres;
        if (load) load.peer = await peerConcurrent(a.url, runs, calls, budgetMs);
      },
    );
  }
}

/** The Workflow DevKit logs a replay that diverged from the event log (the run is retried). */
const replayErrors = (log: string) => log.match(/ReplayDivergenceError|corrupted-event-log/g)?.length ?? 0;

const instanceOf = (server: AppServer) => ({ url: server.url, pids: () => server.pids() });

/** Runs `measure` on fresh instances of a build on the Postgres world, in a database of their own. */
async function measurePostgres(
  results: AgentResults,
  options: { env: Record<string, string>; count: number },
  log: (line: string) => void,
  measure: (first: AppServer, all: AppServer[], databaseUrl: string) => Promise<void>,
): Promise<void> {
  log(`Postgres world: starting ${options.count} instance(s) on a fresh database`);
  const instances = await startInstances({ label: "bench", postgresWorld: true, ...options });
  try {
    const [first] = instances.servers;
    if (!first) throw new Error("no instance started");
    await measure(first, instances.servers, instances.databaseUrl);
    results.serverLogReplayErrors.postgres =
      (results.serverLogReplayErrors.postgres ?? 0) +
      instances.servers.reduce((sum, server) => sum + replayErrors(server.log), 0);
  } finally {
    await instances.dispose();
  }
}
