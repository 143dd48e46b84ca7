import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

// The built app on embedded defaults, in a throwaway data folder.
const port = Number(process.env.E2E_PORT ?? 3217);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "coauthor-e2e-"));
process.env.E2E_DATA_DIR = dataDir;
export const baseURL = `http://127.0.0.1:${port}`;
// A second shared server, for the e2e files that run in the second lane (below): its own port and
// data folder, its output copied to the same server.log, where tests read mailed links.
const secondPort = port + 1;
const secondDataDir = process.env.E2E_SECOND_DATA_DIR ?? mkdtempSync(join(tmpdir(), "coauthor-e2e-second-"));
process.env.E2E_SECOND_DATA_DIR = secondDataDir;

/**
 * The e2e files the second shared server takes, in the second lane after the own-server projects:
 * about as much test time as those projects leave the lane short of the first (from the list
 * reporter's times in one run: the first lane 734 s of tests, the second 323 s, before the move).
 */
const SECOND_SERVER_E2E = [
  "e2e/live-edits.spec.ts",
  "e2e/collaboration.spec.ts",
  "e2e/accessibility.spec.ts",
  "e2e/run-limits.spec.ts",
  "e2e/keyboard.spec.ts",
];

/** The built app on embedded defaults on `serverPort`, its data in `folder`. */
function sharedServer(serverPort: number, folder: string) {
  return {
    // A copy of stdout goes to server.log in the data folder: tests read mailed links there
    // (tests/lib/mail-log.ts) to verify the accounts they sign up; the console is spared those lines.
    command: `node ../apps/editor/scripts/start.mjs | tee -a "${join(dataDir, "server.log")}" | grep --line-buffered -v "^\\[mail\\] "`,
    url: `http://127.0.0.1:${serverPort}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      COAUTHOR_DATA_DIR: folder,
      OFFLINE_MODEL_WORD_DELAY_MS: process.env.OFFLINE_MODEL_WORD_DELAY_MS ?? "40",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      AGENT_TOOL_DEADLINE_MS: "15000",
      RATE_LIMIT_CHAT_PER_MINUTE: "5",
      MAX_CONCURRENT_RUNS_PER_USER: "2",
      // Every test signs up fresh users from this one address.
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
    },
  };
}
// Property-based suites explore with FC_SEED=random: one seed for the whole run, chosen here (the
// runner) so every worker, a restarted one too, uses it and a failure names the seed to reproduce.
if (process.env.FC_SEED === "random") process.env.FC_SEED = String(Math.floor(Math.random() * 2 ** 31));

/**
 * Runs a project after the one before it in its lane. A dependency that fails leaves the projects
 * after it in its lane unrun (Playwright's rule), so a run fails on its first broken project and
 * reports "did not run" for the rest of that lane. Naming one project runs the projects before it
 * in its lane too; `--no-deps` runs it alone.
 */
function afterLane(previous: string) {
  return { dependencies: [previous] };
}

export default defineConfig({
  testDir: ".",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two lanes, one file at a time in each: the projects on the shared server (integration →
  // security → e2e) and the projects that start servers of their own (reliability → scale-out →
  // chaos), then the rest of the e2e files on a second shared server. Two files at once on one
  // shared server made timing-bounded tests flaky, so each lane is a chain of single-worker
  // projects. Measured on an idle 2-core machine: 15.3 min for the 342 tests with e2e all in the
  // first lane, against about 25 in one lane. E2E_WORKERS=1 runs one file at a time in all.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: true,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // The shared-server lane.
    { name: "integration", testMatch: "integration/**/*.spec.ts", workers: 1 },
    {
      name: "security",
      testMatch: "security/**/*.spec.ts",
      testIgnore: "security/no-stall.spec.ts",
      use: { browserName: "chromium" },
      workers: 1,
      ...afterLane("integration"),
    },
    {
      name: "e2e",
      testMatch: "e2e/**/*.spec.ts",
      testIgnore: SECOND_SERVER_E2E,
      use: { browserName: "chromium" },
      workers: 1,
      ...afterLane("security"),
    },
    // The own-server lane. Kills and restarts servers of its own (free ports, their own data folders).
    { name: "reliability", testMatch: "reliability/**/*.spec.ts", timeout: 90_000, workers: 1 },
    // Several instances of the build on the machine's PostgreSQL and Redis (tests/lib/instances.ts):
    // each file its own database, dropped after; a missing service fails the file, naming it.
    {
      name: "scale-out",
      testMatch: "scale-out/**/*.spec.ts",
      timeout: 180_000,
      workers: 1,
      ...afterLane("reliability"),
    },
    // The fault runner (tests/chaos): a short fixed set of seeded rounds on two instances whose
    // PostgreSQL and Redis links it cuts; the same services, and the same failure when one is missing.
    {
      name: "chaos",
      testMatch: "chaos/**/*.spec.ts",
      timeout: 480_000,
      workers: 1,
      ...afterLane("scale-out"),
    },
    // The rest of the end-to-end files, on the second shared server.
    {
      name: "e2e-second-server",
      testMatch: SECOND_SERVER_E2E,
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${secondPort}` },
      workers: 1,
      ...afterLane("chaos"),
    },
    // Times the shared server's answers while it imports the largest documents: run last and alone
    // (after every other project), since another file's load on the server or the machine is not
    // what it measures. `--project=no-stall --no-deps` runs it by itself.
    {
      name: "no-stall",
      testMatch: "security/no-stall.spec.ts",
      dependencies: [
        "integration",
        "security",
        "e2e",
        "reliability",
        "scale-out",
        "chaos",
        "e2e-second-server",
      ],
    },
  ],
  webServer: [sharedServer(port, dataDir), sharedServer(secondPort, secondDataDir)],
});
