#!/usr/bin/env node
// Starts the app (the production build, or `--dev` for next dev) on embedded defaults: data (PGlite database,
// workflow runs, generated secrets) in <repo>/.data unless configured.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const app = join(dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "0.0.0.0";
const dataDir = resolve(process.env.COAUTHOR_DATA_DIR ?? join(app, "..", "..", ".data"));
mkdirSync(dataDir, { recursive: true });

const dev = process.argv.includes("--dev");
const env = {
  ...process.env,
  PORT: port,
  HOST: host,
  NODE_ENV: process.env.NODE_ENV ?? (dev ? "development" : "production"),
  COAUTHOR_DATA_DIR: dataDir,
  // Workflow DevKit's local world keeps runs in .next/ by default, which a rebuild empties.
  WORKFLOW_LOCAL_DATA_DIR: process.env.WORKFLOW_LOCAL_DATA_DIR ?? join(dataDir, "workflow"),
  // The local world's stream readers also list its whole chunk folder every 100 ms, for writers in
  // another process; here every writer is in this one (its chunks reach readers at once), and the
  // folder keeps every run's log for RUN_LOG_RETENTION_DAYS. Read by our patch of the world
  // (patches/@workflow__world-local@4.4.1.patch).
  WORKFLOW_LOCAL_STREAM_POLL_MS: process.env.WORKFLOW_LOCAL_STREAM_POLL_MS ?? "0",
};
// The Postgres world's tables (and its job queue's) are prepared before the server starts, with the
// world's own `bootstrap` command: idempotent, and one instance at a time (an advisory lock), since
// its schema creation is not safe to race. The app's own migrations run as the server opens the
// database, under the same kind of lock.
if (process.env.WORKFLOW_TARGET_WORLD === "@workflow/world-postgres") await prepareWorld();

// server.mjs: Next and the sync socket on one port.
const child = spawn(process.execPath, [join(app, "server.mjs"), ...(dev ? ["--dev"] : [])], {
  cwd: app,
  env,
  stdio: ["inherit", "pipe", "inherit"],
});
let announced = false;
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  if (!announced && /ready|started/i.test(String(chunk))) {
    announced = true;
    process.stdout.write(`\nCoauthor is running at http://localhost:${port}  (data: ${dataDir})\n\n`);
  }
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

async function prepareWorld() {
  const url = process.env.WORKFLOW_POSTGRES_URL || process.env.DATABASE_URL;
  // The world itself reads only WORKFLOW_POSTGRES_URL: by default it shares the app's database.
  env.WORKFLOW_POSTGRES_URL = url;
  if (!url) {
    console.error(
      "WORKFLOW_TARGET_WORLD=@workflow/world-postgres needs WORKFLOW_POSTGRES_URL or DATABASE_URL",
    );
    process.exit(1);
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`select pg_advisory_lock(hashtext('coauthor:workflow-world-setup'))`;
    const bootstrap = join(app, "node_modules", "@workflow", "world-postgres", "bin", "setup.js");
    const setup = spawn(process.execPath, [bootstrap], {
      cwd: app,
      env,
    });
    let output = "";
    setup.stdout.on("data", (chunk) => (output += chunk));
    setup.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise((done) => setup.on("exit", done));
    if (code !== 0) {
      console.error(`Preparing the Postgres world's tables failed:\n${output}`);
      process.exit(1);
    }
  } finally {
    // Ending the session releases the lock.
    await sql.end();
  }
}
