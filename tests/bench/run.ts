// `pnpm bench`: starts the production build on loopback with the offline model
// at full speed (a scripted zero-latency model) and a headless client that acts
// like the browser, measures the agent loop beside the physical floor and the
// naive Workflow DevKit loop, prints one table and writes results/latest.json
// plus a chart. Not part of the test command: figures, not assertions.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { firstDelta, type TripResult, textThroughput, toolRoundTrip } from "./agent-loop.ts";
import { roundTripChart, writeChart } from "./chart.ts";
import { benchCollaboration } from "./collaboration.ts";
import { concurrentRuns } from "./concurrency.ts";
import { physicalFloor } from "./floor.ts";
import { benchHome } from "./home.ts";
import { benchMarkdown, printMarkdown } from "./markdown.ts";
import { naiveLoop } from "./naive.ts";
import { benchPipelines, printPipelines } from "./pipelines.ts";
import { round } from "./stats.ts";
import { benchTools } from "./tools.ts";

const quick = process.argv.includes("--quick");
// `--collab`: only the collaboration section (the agent loop takes minutes).
const collabOnly = process.argv.includes("--collab");
// `--markdown`: only the Markdown load/export section (no server needed).
const markdownOnly = process.argv.includes("--markdown");
// `--home`: only the home list section (1,000 documents, searched and paged).
const homeOnly = process.argv.includes("--home");
const RUN_LENGTHS = quick ? [10, 50] : [10, 50, 100, 200];
// A run still going after this long is stopped and reported as such (bounded benchmark time).
const RUN_BUDGET_MS = Number(process.env.BENCH_RUN_BUDGET_S ?? 90) * 1000;
const benchStarted = performance.now();
const DELTAS = 5_000;
const resultsDir = join(import.meta.dirname, "results");
mkdirSync(resultsDir, { recursive: true });

if (markdownOnly) {
  const markdown = benchMarkdown();
  printMarkdown(markdown);
  writeFileSync(
    join(resultsDir, "latest.json"),
    `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, markdown }, null, 2)}\n`,
  );
  process.exit(0);
}

const floor = await physicalFloor(500, DELTAS);
/** The bench server's settings: the loop at full speed, the abuse limits out of the way. */
const BENCH_SERVER_ENV: Record<string, string> = {
  OFFLINE_MODEL_WORD_DELAY_MS: "0",
  COAUTHOR_BENCH: "1",
  AGENT_MAX_TURNS_PER_STEP: "1000",
  AGENT_MAX_TOOL_CALLS_PER_RUN: "10000",
  // The benchmark measures the loop, not the abuse limits.
  RATE_LIMIT_RUNS_PER_MINUTE: "10000",
  RATE_LIMIT_CALLBACKS_PER_MINUTE: "100000",
  MAX_CONCURRENT_RUNS_PER_USER: "1000",
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: "1000",
  // Every measured user signs up from this one address.
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
};
const server = new AppServer(BENCH_SERVER_ENV, {
  port: process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined,
});
await server.start();
let results: Record<string, unknown> = {};

/** Prints the collaboration table (Coauthor's sync server beside a bare Hocuspocus relay). */
function printCollaboration(collab: Awaited<ReturnType<typeof benchCollaboration>>): void {
  const rows: Record<string, string | number>[] = collab.latency.map(({ clients, coauthor, relay }) => ({
    figure: `keystroke A→B, ${clients} clients, p50 / p95 (ms)`,
    coauthor: `${coauthor.p50Ms} / ${coauthor.p95Ms}`,
    "bare relay": `${relay.p50Ms} / ${relay.p95Ms}`,
    "÷ relay (p95)": relay.p95Ms > 0 ? `${round(coauthor.p95Ms / relay.p95Ms)}×` : "–",
    target: clients === 10 ? "p95 ≤ 50, ≤ 2× relay" : clients === 50 ? "p95 ≤ 150, ≤ 2× relay" : "",
  }));
  rows.push(
    {
      figure: "agent edit → co-editor's editor, p50 / p95 (ms)",
      coauthor: `${collab.agentEditToCoEditor.p50Ms} / ${collab.agentEditToCoEditor.p95Ms}`,
      "bare relay": "",
      "÷ relay (p95)": "",
      target: "",
    },
    {
      figure: "server memory per open document / per connection (KB)",
      coauthor: `${collab.memory.perOpenDocumentKB} / ${collab.memory.perConnectionKB}`,
      "bare relay": "",
      "÷ relay (p95)": "",
      target: "",
    },
    {
      figure: `open a ${collab.open10k.blocks}-block document: synced / in an editor (ms)`,
      coauthor: `${collab.open10k.syncMs} / ${collab.open10k.editorMs}`,
      "bare relay": "",
      "÷ relay (p95)": "",
      target: "≤ 1,500",
    },
    {
      figure: "Yjs state after 10,000 edits (KB)",
      coauthor: collab.after10kEdits.yjsStateKB,
      "bare relay": "",
      "÷ relay (p95)": "",
      target: "",
    },
  );
  console.log("\nCollaboration: Coauthor's sync server vs a bare Hocuspocus relay (loopback, one run)\n");
  console.table(rows);
}

try {
  if (collabOnly) {
    const collaboration = await benchCollaboration(server.url, () => server.pids());
    printCollaboration(collaboration);
    results = { measuredAt: new Date().toISOString(), node: process.version, collaboration };
  } else if (homeOnly) {
    const home = await benchHome(server.url);
    console.log("\nHome page: documents.list over HTTP\n");
    console.table(home);
    results = { measuredAt: new Date().toISOString(), node: process.version, home };
  } else {
    const client = await new CoauthorClient(server.url).signIn();
    const first = await firstDelta(client, quick ? 3 : 10);
    const trips: TripResult[] = [];
    for (const calls of RUN_LENGTHS) {
      try {
        const { trips: _raw, ...trip } = await toolRoundTrip(client, calls, RUN_BUDGET_MS);
        trips.push(trip);
      } catch (error) {
        // A run that cannot finish is a finding, not a crash of the benchmark.
        trips.push({
          calls,
          medianMs: Number.NaN,
          p95Ms: Number.NaN,
          reached: 0,
          seconds: Number.NaN,
          last10MedianMs: Number.NaN,
          note: `not taken: ${(error as Error).message}`,
        });
      }
    }
    const throughput = await textThroughput(client, DELTAS);
    const concurrency: Awaited<ReturnType<typeof concurrentRuns>>[] = [];
    for (const runs of quick ? [1, 10] : [1, 10, 50]) {
      concurrency.push(
        await concurrentRuns(server.url, () => server.pids(), runs, Math.min(5, runs), 5, RUN_BUDGET_MS),
      );
    }
    // The naive loop runs last: its long runs leave the server busy replaying them.
    const naive = await naiveLoop(server.url, RUN_LENGTHS, DELTAS, RUN_BUDGET_MS);
    const tools = quick ? [] : await benchTools();
    const markdown = benchMarkdown();
    const collaboration = await benchCollaboration(server.url, () => server.pids());
    const home = await benchHome(server.url);
    const pipelines = await benchPipelines(server.url, BENCH_SERVER_ENV);
    results = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      floor,
      naive,
      first,
      trips,
      throughput,
      concurrency,
      tools,
      markdown,
      collaboration,
      home,
      pipelines,
    };

    const at = (list: { calls: number; medianMs: number }[], calls: number) =>
      list.find((t) => t.calls === calls)?.medianMs ?? Number.NaN;
    const noteOf = (list: { calls: number; note?: string }[], calls: number) =>
      list.find((t) => t.calls === calls)?.note ?? "";
    const ratio = (ours: number, reference: number) => (reference > 0 ? `${round(ours / reference)}×` : "–");
    const row = (
      metric: string,
      ours: number,
      floorValue: number,
      naiveValue: number,
      target: string,
      note = "",
    ) => ({
      metric,
      coauthor: ours,
      floor: floorValue,
      naive: naiveValue,
      "÷ floor": Number.isNaN(ours) ? "–" : ratio(ours, floorValue),
      "÷ naive": Number.isNaN(ours) ? "–" : ratio(ours, naiveValue),
      target,
      note,
    });
    const both = (ours: string, theirs: string) =>
      [ours && `Coauthor ${ours}`, theirs && `naive ${theirs}`].filter(Boolean).join("; ");
    const table = [
      row(
        "first text-delta, warm median (ms)",
        first.warmMedianMs,
        floor.sseFirstFrameMs,
        naive.firstFrameWarmMedianMs,
        "≤ 30",
      ),
      row("first text-delta, cold (ms)", first.coldMs, floor.sseFirstFrameMs, Number.NaN, ""),
      ...RUN_LENGTHS.map((calls) =>
        row(
          `tool round trip @${calls} calls, median (ms)`,
          at(trips, calls),
          floor.postRoundTripMedianMs,
          at(naive.toolRoundTrip, calls),
          calls === 50 ? "≤ 15" : "",
          both(noteOf(trips, calls), noteOf(naive.toolRoundTrip, calls)),
        ),
      ),
      row(
        "round trip growth 200/10 calls (×)",
        round(at(trips, 200) / at(trips, 10)),
        1,
        round(at(naive.toolRoundTrip, 200) / at(naive.toolRoundTrip, 10)),
        "≤ 2",
        Number.isNaN(at(trips, 200)) || Number.isNaN(at(naive.toolRoundTrip, 200))
          ? `not taken for ${Number.isNaN(at(trips, 200)) ? "coauthor" : "the naive loop"}: its 200-call run did not finish (see the 200-call row)`
          : "",
      ),
      row(
        "text deltas delivered per second",
        throughput.deltasPerSecond,
        floor.sseFramesPerSecond,
        naive.deltasPerSecond,
        "≥ 10,000",
        throughput.note ?? "",
      ),
      row(
        "delta emit → arrival p95 (ms)",
        throughput.emitToArrivalP95Ms,
        floor.sseEmitToArrivalP95Ms,
        naive.emitToArrivalP95Ms,
        "≤ 25",
      ),
    ];
    console.log(
      "\nCoauthor agent loop vs the physical floor and the naive Workflow DevKit loop (local world, loopback)\n",
    );
    console.table(table);
    console.table(
      trips.map((t) => ({
        "tool calls": t.calls,
        "median (ms)": t.medianMs,
        "p95 (ms)": t.p95Ms,
        reached: t.reached,
        "run (s)": t.seconds,
        "last 10 median (ms)": t.last10MedianMs,
        note: t.note ?? "",
      })),
    );
    console.table(
      concurrency.map(({ eventsOnWrongStream, ...c }) => ({
        ...c,
        "events on a wrong stream": eventsOnWrongStream,
      })),
    );
    if (tools.length > 0) console.table(tools);
    printMarkdown(markdown);
    printCollaboration(collaboration);
    console.log("\nHome page: documents.list over HTTP\n");
    console.table(home);
    printPipelines(pipelines);
    const chart = await writeChart(
      roundTripChart([
        { label: "Coauthor", color: "#2563eb", points: trips },
        { label: "naive loop", color: "#dc2626", points: naive.toolRoundTrip },
      ]),
      join(resultsDir, "round-trip"),
    );
    results.table = table;
    results.benchSeconds = round((performance.now() - benchStarted) / 1000);
    console.log(`chart: ${chart.join(", ")}`);
    console.log(`benchmark took ${results.benchSeconds} s`);
  }
} finally {
  await server.dispose();
}
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`written to ${join(resultsDir, "latest.json")}`);
