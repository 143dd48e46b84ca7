// The agent-loop section of `npm run bench`: Coauthor and the peer (WorkflowAgent) on the local
// world (the `server` run.ts started), then on the Postgres world (two fresh instances of the
// same build on the machine's PostgreSQL, their own database, dropped after), plus the naive loop.
import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { startInstances } from "../lib/instances.ts";
import { textThroughput } from "./agent-loop.ts";
import type { AgentResults } from "./agent-table.ts";
import { concurrentRuns, type RunTarget } from "./concurrency.ts";
import type { physicalFloor } from "./floor.ts";
import { naiveLoop } from "./naive.ts";
import { coauthorFigures, loadFigures, peerFigures } from "./worlds.ts";

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

// Runs held at their first tool call for the memory figure: enough that their memory rises
// well above the few MB a server's RSS drifts by between two reads.
const WAITING_RUNS = 100;

/** A full collection on every instance (the bench-only route), so RSS reads live memory. */
const collectGarbage = (urls: string[]) => async () => {
  for (const url of urls) {
    const response = await fetch(`${url}/api/bench/gc`, { method: "POST" });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GC on ${url} answered ${response.status}`);
  }
};

const targetOf = (servers: AppServer[]): RunTarget => ({
  urls: servers.map((s) => s.url),
  pids: () => servers.flatMap((s) => s.pids()),
  gc: collectGarbage(servers.map((s) => s.url)),
});

/** Measures everything in AgentResults; `postgres: false` leaves the Postgres world out. */
export async function benchAgentLoop(options: {
  server: AppServer;
  floor: Awaited<ReturnType<typeof physicalFloor>>;
  runLengths: number[];
  warmRuns: number;
  budgetMs: number;
  deltas: number;
  postgres: boolean;
  log: (line: string) => void;
}): Promise<AgentResults> {
  const { server, runLengths, warmRuns, budgetMs, log } = options;
  const local = { url: server.url, pids: () => server.pids() };
  log("local world: Coauthor");
  const coauthorLocal = await coauthorFigures(local, runLengths, warmRuns, budgetMs);
  const throughput = await textThroughput(await new CoauthorClient(server.url).signIn(), options.deltas);
  log(`local world: ${WAITING_RUNS} runs waiting on a tool call (memory)`);
  const memory = await concurrentRuns(targetOf([server]), WAITING_RUNS, 10, 1, budgetMs);
  log("local world: the peer (WorkflowAgent)");
  const peerLocal = await peerFigures(local, runLengths, warmRuns, budgetMs);
  log("local world: 50 concurrent runs");
  const loadLocal = await loadFigures(targetOf([server]), budgetMs, true);
  // The naive loop runs last on this server: its long runs leave the server busy replaying them.
  log("local world: the naive loop");
  const naive = await naiveLoop(server.url, runLengths, options.deltas, budgetMs);
  // The Workflow DevKit logs a replay that diverged from the event log (the run is retried).
  const replayErrors = (log: string) => log.match(/ReplayDivergenceError|corrupted-event-log/g)?.length ?? 0;
  const results: AgentResults = {
    serverLogReplayErrors: { local: replayErrors(server.log) },
    floor: options.floor,
    runLengths,
    coauthor: { local: coauthorLocal },
    peer: { local: peerLocal },
    naive,
    load: { local: loadLocal },
    memory,
    throughput,
  };
  if (!options.postgres) return results;

  log("Postgres world: starting two instances on a fresh database");
  const instances = await startInstances({
    label: "bench",
    postgresWorld: true,
    count: 2,
    env: BENCH_SERVER_ENV,
  });
  try {
    const [a, b] = instances.servers as [AppServer, AppServer];
    const first = { url: a.url, pids: () => a.pids() };
    log("Postgres world: Coauthor");
    results.coauthor.postgres = await coauthorFigures(first, runLengths, warmRuns, budgetMs);
    log("Postgres world: the peer (WorkflowAgent)");
    results.peer.postgres = await peerFigures(first, runLengths, warmRuns, budgetMs);
    log("Postgres world: 50 concurrent runs on one instance, then on two");
    results.load.postgres = await loadFigures(targetOf([a]), budgetMs, true);
    results.load.twoInstances = await concurrentRuns(targetOf([a, b]), 50, 10, 5, budgetMs);
    results.serverLogReplayErrors.postgres = replayErrors(a.log) + replayErrors(b.log);
  } finally {
    await instances.dispose();
  }
  return results;
}
