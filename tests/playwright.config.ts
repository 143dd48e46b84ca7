import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";

// The built app on embedded defaults, in throwaway data folders: one server per project that
// shares a server among its files (integration, security, the two halves of e2e), each on its own
// port and data folder, so those projects run side by side without ever running two files at once
// on one server (that made timing-bounded tests flaky). Every server's output goes to one
// server.log in E2E_DATA_DIR, where tests read mailed links (tests/lib/mail-log.ts).
const port = Number(process.env.E2E_PORT ?? 3217);
const logDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "coauthor-e2e-"));
process.env.E2E_DATA_DIR = logDir;
export const baseURL = `http://127.0.0.1:${port}`;
// Property-based suites explore with FC_SEED=random: one seed for the whole run, chosen here (the
// runner) so every worker, a restarted one too, uses it and a failure names the seed to reproduce.
if (process.env.FC_SEED === "random") process.env.FC_SEED = String(Math.floor(Math.random() * 2 ** 31));

/**
 * The e2e files the second e2e server takes: about half of e2e's test time, so the two halves
 * and the other projects share two workers evenly.
 */
const SECOND_SERVER_E2E = [
  "e2e/live-edits.spec.ts",
  "e2e/collaboration.spec.ts",
  "e2e/accessibility.spec.ts",
  "e2e/run-limits.spec.ts",
  "e2e/keyboard.spec.ts",
];

/** A shared server: its port and data folder (pinned in the environment: workers read this file too). */
function sharedServerAt(offset: number, name: string) {
  const variable = `E2E_DATA_DIR_${name.toUpperCase().replaceAll("-", "_")}`;
  const dataDir = process.env[variable] ?? mkdtempSync(join(tmpdir(), `coauthor-e2e-${name}-`));
  process.env[variable] = dataDir;
  return { port: port + offset, dataDir };
}

const servers = {
  integration: sharedServerAt(0, "integration"),
  security: sharedServerAt(1, "security"),
  e2e: sharedServerAt(2, "e2e"),
  e2eSecond: sharedServerAt(3, "e2e-second"),
};

/** The built app on embedded defaults on `server.port`, its data in `server.dataDir`. */
function webServer(server: { port: number; dataDir: string }) {
  return {
    // The console is spared the mail lines.
    command: `node ../apps/editor/scripts/start.mjs | tee -a "${join(logDir, "server.log")}" | grep --line-buffered -v "^\\[mail\\] "`,
    url: `http://127.0.0.1:${server.port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(server.port),
      HOST: "127.0.0.1",
      COAUTHOR_DATA_DIR: server.dataDir,
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

/**
 * What a project on a shared server sets: the server's address, and its data folder as metadata
 * (tests/lib/shared-server.ts reads it for tests that look at what the server stored).
 */
function onServer(server: { port: number; dataDir: string }): Pick<PlaywrightTestConfig, "use" | "metadata"> {
  return {
    use: { baseURL: `http://127.0.0.1:${server.port}`, browserName: "chromium" },
    metadata: { dataDir: server.dataDir },
  };
}

export default defineConfig({
  testDir: ".",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two files at a time on this project's 2-core machines, never two of one project at once
  // (`workers: 1` on each): a shared server serves one file at a time, and the own-server projects
  // start servers enough. Measured on a clean clone, machine idle: Playwright 742 s (`npm test`
  // 1,015 s), against 884 s with the projects chained in two lanes and about 1,500 s with one file
  // at a time in all (E2E_WORKERS=1 still does that).
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
  // Longest first, so the two workers end about together.
  projects: [
    {
      name: "e2e",
      testMatch: "e2e/**/*.spec.ts",
      testIgnore: SECOND_SERVER_E2E,
      workers: 1,
      ...onServer(servers.e2e),
    },
    {
      name: "security",
      testMatch: "security/**/*.spec.ts",
      testIgnore: "security/no-stall.spec.ts",
      workers: 1,
      ...onServer(servers.security),
    },
    // The rest of the end-to-end files, on a server of their own.
    { name: "e2e-second-server", testMatch: SECOND_SERVER_E2E, workers: 1, ...onServer(servers.e2eSecond) },
    // Several instances of the build on the machine's PostgreSQL and Redis (tests/lib/instances.ts):
    // each file its own database, dropped after; a missing service fails the file, naming it.
    { name: "scale-out", testMatch: "scale-out/**/*.spec.ts", timeout: 180_000, workers: 1 },
    // Kills and restarts servers of its own (free ports, their own data folders).
    { name: "reliability", testMatch: "reliability/**/*.spec.ts", timeout: 90_000, workers: 1 },
    {
      name: "integration",
      testMatch: "integration/**/*.spec.ts",
      workers: 1,
      ...onServer(servers.integration),
    },
    // The fault runner (tests/chaos): a short fixed set of seeded rounds on two instances whose
    // PostgreSQL and Redis links it cuts; the same services, and the same failure when one is missing.
    { name: "chaos", testMatch: "chaos/**/*.spec.ts", timeout: 480_000, workers: 1 },
    // Times a shared server's answers while it imports the largest documents: run last and alone
    // (after every other project), since another file's load on the server or the machine is not
    // what it measures. `--project=no-stall --no-deps` runs it by itself.
    {
      name: "no-stall",
      testMatch: "security/no-stall.spec.ts",
      ...onServer(servers.integration),
      dependencies: [
        "integration",
        "security",
        "e2e",
        "e2e-second-server",
        "reliability",
        "scale-out",
        "chaos",
      ],
    },
  ],
  webServer: [
    webServer(servers.integration),
    webServer(servers.security),
    webServer(servers.e2e),
    webServer(servers.e2eSecond),
  ],
});
