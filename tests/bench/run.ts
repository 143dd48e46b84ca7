// `pnpm bench`: starts the production build on loopback with the offline model
// at full speed (a scripted zero-latency model) and a headless client that acts
// like the browser, measures the agent loop beside the physical floor and the
// naive Workflow DevKit loop, prints one table and writes results/latest.json
// plus a chart. Not part of the test command: figures, not assertions.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServer } from "../lib/app-server.ts";
import { BENCH_SERVER_ENV, benchAgentLoop, benchPeer } from "./agent-bench.ts";
import { agentNotes, agentTable } from "./agent-table.ts";
import { roundTripChart, writeChart } from "./chart.ts";
import { benchCollaboration } from "./collaboration.ts";
import { concurrentRuns } from "./concurrency.ts";
import { physicalFloor } from "./floor.ts";
import { benchHome } from "./home.ts";
import { benchMarkdown, printMarkdown } from "./markdown.ts";
import { benchPipelines, printPipelines } from "./pipelines.ts";
import { round } from "./stats.ts";
import { benchSuggestions, printSuggestions } from "./suggestions.ts";
import { benchTools } from "./tools.ts";

const quick = process.argv.includes("--quick");
// `--collab`: only the collaboration section (the agent loop takes minutes).
const collabOnly = process.argv.includes("--collab");
// `--markdown`: only the Markdown load/export section (no server needed).
const markdownOnly = process.argv.includes("--markdown");
// `--home`: only the home list section (1,000 documents, searched and paged).
const homeOnly = process.argv.includes("--home");
// `--agent`: only the agent loop (both worlds, the peer, the naive loop); `--no-postgres` leaves
// the Postgres world out (a machine without PostgreSQL).
const agentOnly = process.argv.includes("--agent");
const RUN_LENGTHS = quick ? [10, 50] : [10, 50, 200];
// A run still going after this long is stopped and reported as such (bounded benchmark time).
const RUN_BUDGET_MS = Number(process.env.BENCH_RUN_BUDGET_S ?? 90) * 1000;
const benchStarted = performance.now();
const DELTAS = 5_000;
const resultsDir = join(import.meta.dirname, "results");
mkdirSync(resultsDir, { recursive: true });

// `--suggestions`: only the suggestions section (headless, no server needed).
if (process.argv.includes("--suggestions")) {
  printSuggestions(await benchSuggestions());
  process.exit(0);
}

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
    const agentOptions = {
      runLengths: RUN_LENGTHS,
      warmRuns: quick ? 3 : 10,
      budgetMs: RUN_BUDGET_MS,
      postgres: !process.argv.includes("--no-postgres"),
      log: (line: string) => console.log(`[bench] ${line}`),
    };
    const agent = await benchAgentLoop({ ...agentOptions, server, floor, deltas: DELTAS });
    console.log("[bench] pipelines");
    const pipelines = await benchPipelines(BENCH_SERVER_ENV);
    const concurrency: Awaited<ReturnType<typeof concurrentRuns>>[] = [];
    for (const runs of [1, 10]) {
      concurrency.push(
        await concurrentRuns(
          { urls: [server.url], pids: () => server.pids() },
          runs,
          Math.min(5, runs),
          5,
          RUN_BUDGET_MS,
        ),
      );
    }
    const tools = quick || agentOnly ? [] : await benchTools();
    const markdown = agentOnly ? undefined : benchMarkdown();
    const suggestions = agentOnly ? undefined : await benchSuggestions(quick ? [200] : [200, 1_000]);
    const collaboration = agentOnly ? undefined : await benchCollaboration(server.url, () => server.pids());
    const home = agentOnly ? undefined : await benchHome(server.url);
    await benchPeer(agent, agentOptions);
    const table = agentTable(agent);
    results = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      agent,
      pipelines,
      concurrency,
      tools,
      markdown,
      suggestions,
      collaboration,
      home,
    };
    console.log(
      "\nAgent loop: Coauthor on both worlds vs the peer (AI SDK WorkflowAgent), the naive Workflow DevKit loop and the physical floor (loopback, one run)\n",
    );
    console.table(table);
    for (const note of agentNotes(agent)) console.log(`  note: ${note}`);
    console.table(
      concurrency.map(({ eventsOnWrongStream, ...c }) => ({
        ...c,
        "events on a wrong stream": eventsOnWrongStream,
      })),
    );
    printPipelines(pipelines);
    if (tools.length > 0) console.table(tools);
    if (markdown) printMarkdown(markdown);
    if (suggestions) printSuggestions(suggestions);
    if (collaboration) printCollaboration(collaboration);
    if (home) {
      console.log("\nHome page: documents.list over HTTP\n");
      console.table(home);
    }
    const chart = await writeChart(
      roundTripChart([
        { label: "Coauthor (local)", color: "#2563eb", points: agent.coauthor.local.trips },
        { label: "WorkflowAgent (local)", color: "#16a34a", points: agent.peer.local?.trips ?? [] },
        { label: "naive loop", color: "#dc2626", points: agent.naive.toolRoundTrip },
      ]),
      join(resultsDir, "round-trip"),
    );
    results.table = table;
    results.benchSeconds = round((performance.now() - benchStarted) / 1000);
    console.log(`chart: ${chart.join(", ")}`);
    console.log(`benchmark took ${results.benchSeconds} s`);
  }
} catch (error) {
  // A section that lost its server: what the server said last tells why.
  console.error(`the bench failed; the main server's last output:\n${server.log.slice(-4_000)}`);
  throw error;
} finally {
  await server.dispose();
}
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`written to ${join(resultsDir, "latest.json")}`);
