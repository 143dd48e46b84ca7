// Every section of `npm run bench` in turn, each run as a named section (section.ts) with the
// servers it uses, then every table and the round-trip chart. run.ts calls it with the main server
// (the product build on the local world) started.
import { join } from "node:path";
import type { AppServer } from "../lib/app-server.ts";
import { BENCH_SERVER_ENV, benchAgentLoop, benchPeer } from "./agent-bench.ts";
import { agentNotes, agentTable } from "./agent-table.ts";
import { benchBackgroundRuns, printBackgroundRuns } from "./background-runs.ts";
import { benchBrowserSuggestions, printBrowserSuggestions } from "./browser-suggestions.ts";
import { roundTripChart, writeChart } from "./chart.ts";
import { benchCollaboration, printCollaboration } from "./collaboration.ts";
import { printComments } from "./comments.ts";
import { concurrentRuns } from "./concurrency.ts";
import type { physicalFloor } from "./floor.ts";
import { runHeadless } from "./headless.ts";
import { benchHome, printHome } from "./home.ts";
import { printMarkdown } from "./markdown.ts";
import { benchPipelines, printPipelines } from "./pipelines.ts";
import { section } from "./section.ts";
import { printServerExecutor } from "./server-executor.ts";
import type { BenchSizes } from "./sizes.ts";
import { printSuggestions } from "./suggestions.ts";
import { benchVersionList, printVersionList, printVersions } from "./versions.ts";

/** What the whole bench is run with. */
export interface WholeBenchOptions {
  server: AppServer;
  floor: Awaited<ReturnType<typeof physicalFloor>>;
  sizes: BenchSizes;
  budgetMs: number;
  /** `false` leaves the Postgres world out (a machine without PostgreSQL). */
  postgres: boolean;
  /** Only the agent loop (both worlds, the peer, the naive loop). */
  agentOnly: boolean;
  /** `false` leaves the peer out: it needs a build of its own, which takes minutes. */
  peer: boolean;
  /** Where the chart is written (`round-trip.svg`, `.png`). */
  chartDir: string;
}

/** Runs every section, prints every table and writes the chart; returns the results. */
export async function wholeBench(options: WholeBenchOptions): Promise<Record<string, unknown>> {
  const { server, sizes, budgetMs, agentOnly } = options;
  const shared = [server];
  const agentOptions = {
    sizes: sizes.agent,
    budgetMs,
    postgres: options.postgres,
    log: (line: string) => console.log(`[bench] ${line}`),
  };
  const agent = await section(
    "agent loop",
    () => benchAgentLoop({ ...agentOptions, server, floor: options.floor, deltas: sizes.floor.frames }),
    shared,
  );
  const pipelines = await section("pipelines", () => benchPipelines(BENCH_SERVER_ENV, sizes.pipelines));
  const concurrency = await section(
    "concurrency",
    async () => {
      const passes: Awaited<ReturnType<typeof concurrentRuns>>[] = [];
      const target = { urls: [server.url], pids: () => server.pids() };
      for (const runs of sizes.concurrentRuns)
        passes.push(await concurrentRuns(target, runs, Math.min(5, runs), 5, budgetMs));
      return passes;
    },
    shared,
  );
  const headless = !agentOnly;
  const tools =
    headless && sizes.tools.blocks.length > 0
      ? await section("editor tools", () => runHeadless("tools", sizes))
      : [];
  const markdown = headless ? await section("markdown", () => runHeadless("markdown", sizes)) : undefined;
  const suggestions = headless
    ? await section("suggestions", () => runHeadless("suggestions", sizes))
    : undefined;
  const versions = headless ? await section("versions", () => runHeadless("versions", sizes)) : undefined;
  const comments = headless ? await section("comments", () => runHeadless("comments", sizes)) : undefined;
  const serverExecutor = headless
    ? await section("server executor", () => runHeadless("serverExecutor", sizes))
    : undefined;
  const browserSuggestions = headless
    ? await section(
        "suggestions in Chromium",
        () => benchBrowserSuggestions(server.url, sizes.browserSuggestions),
        shared,
      )
    : undefined;
  const backgroundRuns = headless
    ? await section(
        "background runs",
        () => benchBackgroundRuns(server.url, () => server.pids(), sizes.backgroundRuns),
        shared,
      )
    : undefined;
  const collaboration = headless
    ? await section(
        "collaboration",
        () => benchCollaboration(server.url, () => server.pids(), sizes.collaboration),
        shared,
      )
    : undefined;
  const home = headless ? await section("home", () => benchHome(server.url, sizes.home), shared) : undefined;
  const versionList = headless
    ? await section("version list", () => benchVersionList(server.url, sizes.versionList), shared)
    : undefined;
  if (options.peer) await section("peer", () => benchPeer(agent, agentOptions));
  else console.log("[bench] peer: left out (it needs a build of its own; --peer adds it)");

  const table = agentTable(agent);
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
  if (markdown) printMarkdown(markdown, sizes.markdown.runs);
  if (suggestions) printSuggestions(suggestions);
  if (browserSuggestions) printBrowserSuggestions(browserSuggestions);
  if (versions) printVersions(versions);
  if (comments) printComments(comments);
  if (serverExecutor) printServerExecutor(serverExecutor);
  if (backgroundRuns) printBackgroundRuns(backgroundRuns);
  if (collaboration) printCollaboration(collaboration);
  if (home) printHome(home);
  if (versionList) printVersionList(versionList);
  const chart = await section("chart", () =>
    writeChart(
      roundTripChart([
        { label: "Coauthor (local)", color: "#2563eb", points: agent.coauthor.local.trips },
        { label: "WorkflowAgent (local)", color: "#16a34a", points: agent.peer.local?.trips ?? [] },
        { label: "naive loop", color: "#dc2626", points: agent.naive.toolRoundTrip },
      ]),
      join(options.chartDir, "round-trip"),
    ),
  );
  console.log(`chart: ${chart.join(", ")}`);
  return {
    agent,
    pipelines,
    concurrency,
    tools,
    markdown,
    suggestions,
    browserSuggestions,
    versions,
    comments,
    serverExecutor,
    backgroundRuns,
    collaboration,
    home,
    versionList,
    table,
  };
}
