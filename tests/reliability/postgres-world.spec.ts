import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import postgres from "postgres";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { forgedDelivery } from "../lib/engine-delivery.ts";
import { createTestDatabase, REDIS_URL, requireSharedServices } from "../lib/shared-services.ts";
import { expect, test } from "../lib/test.ts";

// Two instances on Workflow DevKit's Postgres world (the scale-out setup): each instance's job
// runner takes deliveries from the shared database and POSTs them to its own engine routes over
// loopback HTTP, so these are the deliveries that must carry the engine's credential.
const WORLD_SETUP = resolve(
  import.meta.dirname,
  "../../apps/editor/node_modules/@workflow/world-postgres/bin/setup.js",
);
const secrets = {
  SESSION_SECRET: randomBytes(32).toString("base64url"),
  HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
};
let servers: AppServer[] = [];
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await requireSharedServices();
  database = await createTestDatabase("world");
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    WORKFLOW_TARGET_WORLD: "@workflow/world-postgres",
    WORKFLOW_POSTGRES_URL: database.url,
    ...secrets,
  };
  // The world's tables, once (README: "Prepare the Postgres world's tables once").
  const setup = spawnSync(process.execPath, [WORLD_SETUP], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (setup.status !== 0) throw new Error(`world setup failed:\n${setup.stdout}\n${setup.stderr}`);
  servers = [new AppServer(env), new AppServer(env)];
  // One after the other: the first applies the app's migrations.
  for (const server of servers) await server.start();
});

test.afterAll(async () => {
  for (const server of servers) await server.dispose();
  await database?.drop();
});

test("a run's engine deliveries arrive over HTTP with the engine's credential; forged ones get 401 on every instance", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const client = await new CoauthorClient(first.url).signIn();
  const documentId = await client.createDocument();
  const forged: number[] = [];
  const run = await client.runAgent(documentId, "count to 3", {
    onEvent: async (event, { runId }) => {
      if (event.type !== "tool-call" || forged.length > 0) return undefined;
      for (const server of [first, second]) {
        for (const route of ["flow", "step"]) {
          const response = await fetch(
            `${server.url}/.well-known/workflow/v1/${route}`,
            forgedDelivery(runId),
          );
          forged.push(response.status);
          await response.arrayBuffer();
        }
      }
      return undefined;
    },
  });
  expect(forged).toEqual([401, 401, 401, 401]);
  // Every step of the run went through the job queue and the engine routes, and it finished its work.
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  const results = run.events.filter((event) => event.type === "tool-result");
  expect(results.map((event) => event.ok)).toEqual([true, true, true]);
  // The run lived in the Postgres world (not a local one) and completes there.
  const sql = postgres(database?.url ?? "", { max: 1, onnotice: () => undefined });
  const worldStatus = async () =>
    (await sql<{ status: string }[]>`select status from workflow.workflow_runs where id = ${run.runId}`).map(
      (row) => row.status,
    );
  await expect.poll(worldStatus).toEqual(["completed"]);
  await sql.end();
});
