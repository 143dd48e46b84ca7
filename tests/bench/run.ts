// `pnpm bench`: starts the production build on loopback with the offline model
// at full speed (a scripted zero-latency model) and a headless client that acts
// like the browser, measures the agent loop beside the physical floor and the
// naive Workflow DevKit loop, prints one table per section and writes
// results/latest.json plus a chart. Figures, not assertions; `--smoke` runs every
// section on tiny sizes (part of `npm test`) and fails only when one could not do
// its work.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppServer } from "../lib/app-server.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { benchBackgroundRuns, printBackgroundRuns } from "./background-runs.ts";
import { benchBrowserSuggestions, printBrowserSuggestions } from "./browser-suggestions.ts";
import { benchCollaboration, printCollaboration } from "./collaboration.ts";
import { benchComments, printComments } from "./comments.ts";
import { physicalFloor } from "./floor.ts";
import { benchHome, printHome } from "./home.ts";
import { benchMarkdown, printMarkdown } from "./markdown.ts";
import { section } from "./section.ts";
import { benchServerExecutor, printServerExecutor } from "./server-executor.ts";
import { benchMode, sizesFor } from "./sizes.ts";
import { undoneWork } from "./smoke-check.ts";
import { round } from "./stats.ts";
import { benchSuggestions, printSuggestions } from "./suggestions.ts";
import { benchVersionList, benchVersions, printVersionList, printVersions } from "./versions.ts";
import { wholeBench } from "./whole-bench.ts";

const argv = process.argv.slice(2);
// `--quick`: shorter agent runs, fewer warm runs, no editor-tool section. `--smoke`: see above.
const mode = benchMode(argv);
const sizes = sizesFor(mode);
const smoke = mode === "smoke";
// A run still going after this long is stopped and reported as such (bounded benchmark time).
const RUN_BUDGET_MS = Number(process.env.BENCH_RUN_BUDGET_S ?? 90) * 1000;
const benchStarted = performance.now();
const resultsDir = join(import.meta.dirname, "results");
mkdirSync(resultsDir, { recursive: true });

/** Writes results/latest.json (not for a smoke pass, whose figures would replace real ones). */
function writeResults(results: Record<string, unknown>): void {
  if (smoke) return;
  const file = join(resultsDir, "latest.json");
  const stamped = { measuredAt: new Date().toISOString(), node: process.version, ...results };
  writeFileSync(file, `${JSON.stringify(stamped, null, 2)}\n`);
  console.log(`written to ${file}`);
}

// `--suggestions`: only the suggestions section (headless, no server needed).
if (argv.includes("--suggestions")) {
  printSuggestions(await benchSuggestions(sizes.suggestions));
  process.exit(0);
}

// `--versions`: only the version storage and restore section (headless, no server needed).
if (argv.includes("--versions")) {
  printVersions(benchVersions(sizes.versions));
  process.exit(0);
}

// `--comments`: only the comment threads section (headless, no server needed).
if (argv.includes("--comments")) {
  printComments(benchComments(sizes.comments));
  process.exit(0);
}

// `--server-executor`: only the server executor's call (headless, no server needed).
if (argv.includes("--server-executor")) {
  printServerExecutor(benchServerExecutor(sizes.serverExecutor));
  process.exit(0);
}

// `--markdown`: only the Markdown load/export section (no server needed).
if (argv.includes("--markdown")) {
  const markdown = benchMarkdown(sizes.markdown);
  printMarkdown(markdown, sizes.markdown.runs);
  writeResults({ markdown });
  process.exit(0);
}

const floor = await section("floor", () => physicalFloor(sizes.floor.posts, sizes.floor.frames));
const server = new AppServer(BENCH_SERVER_ENV, {
  port: process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined,
});
let results: Record<string, unknown>;
try {
  await section("main server start", () => server.start(), [server]);
  if (argv.includes("--collab")) {
    // Only the collaboration section (the agent loop takes minutes).
    const collaboration = await section(
      "collaboration",
      () => benchCollaboration(server.url, () => server.pids(), sizes.collaboration),
      [server],
    );
    printCollaboration(collaboration);
    results = { collaboration };
  } else if (argv.includes("--browser-suggestions")) {
    // Only deciding suggestions in Chromium.
    const browserSuggestions = await section(
      "suggestions in Chromium",
      () => benchBrowserSuggestions(server.url, sizes.browserSuggestions),
      [server],
    );
    printBrowserSuggestions(browserSuggestions);
    results = { browserSuggestions };
  } else if (argv.includes("--background")) {
    // Only the background runs section (runs executed by the server, beside tabs).
    const backgroundRuns = await section(
      "background runs",
      () => benchBackgroundRuns(server.url, () => server.pids(), sizes.backgroundRuns),
      [server],
    );
    printBackgroundRuns(backgroundRuns);
    results = { backgroundRuns };
  } else if (argv.includes("--home")) {
    // Only the home list section (1,000 documents, searched and paged).
    const home = await section("home", () => benchHome(server.url, sizes.home), [server]);
    printHome(home);
    results = { home };
  } else if (argv.includes("--version-list")) {
    // Only the Versions view's list (1,000 versions of one document).
    const versionList = await section("version list", () => benchVersionList(server.url, sizes.versionList), [
      server,
    ]);
    printVersionList(versionList);
    results = { versionList };
  } else {
    results = await wholeBench({
      server,
      floor,
      sizes,
      budgetMs: RUN_BUDGET_MS,
      // `--no-postgres`: the Postgres world left out (a machine without PostgreSQL).
      postgres: !argv.includes("--no-postgres"),
      // `--agent`: only the agent loop (both worlds, the peer, the naive loop).
      agentOnly: argv.includes("--agent"),
      // A smoke pass leaves the peer out unless asked (`--peer`): its build takes minutes.
      peer: !smoke || argv.includes("--peer"),
      chartDir: smoke ? mkdtempSync(join(tmpdir(), "coauthor-bench-smoke-")) : resultsDir,
    });
    results.benchSeconds = round((performance.now() - benchStarted) / 1000);
  }
} finally {
  await server.dispose();
}
console.log(`benchmark took ${round((performance.now() - benchStarted) / 1000)} s`);
if (smoke) {
  const undone = undoneWork(results);
  if (undone.length > 0) {
    console.error(
      `smoke pass: work left undone (the harness no longer drives the app):\n${undone.join("\n")}`,
    );
    process.exit(1);
  }
  console.log("smoke pass: every section did its work (figures not judged)");
}
writeResults(results);
