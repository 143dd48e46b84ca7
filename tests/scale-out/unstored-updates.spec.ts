import { runEditorTool } from "@coauthor/tools";
import postgres from "postgres";
import { storedDocumentState } from "../chaos/document-state.ts";
import type { AppServer } from "../lib/app-server.ts";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { FaultProxy } from "../lib/fault-proxy.ts";
import { type Instances, oneUserOnEach, startInstances } from "../lib/instances.ts";
import { ADMIN_URL } from "../lib/shared-services.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// An acknowledged update is stored even when the instance that received it cannot store it before
// it goes (issue #35): killed while its append is under way, or stopped while PostgreSQL is
// unreachable. The instances reach PostgreSQL through a fault proxy (tests/lib/fault-proxy.ts).
// Needs the machine's PostgreSQL and Redis.

let proxy: FaultProxy;
let instances: Instances | undefined;
let sql: postgres.Sql | undefined;

test.beforeEach(async () => {
  proxy = await FaultProxy.forUrl(ADMIN_URL, 5432);
});

test.afterEach(async () => {
  await sql?.end();
  await instances?.dispose();
  await proxy.close();
  sql = undefined;
  instances = undefined;
});

async function start(count: number): Promise<{ servers: AppServer[]; clients: CoauthorClient[] }> {
  instances = await startInstances({
    label: "unstored",
    count,
    via: { database: (url) => proxy.route(url) },
  });
  sql = postgres(instances.databaseUrl, { max: 1, onnotice: () => undefined });
  return { servers: instances.servers, clients: await oneUserOnEach(instances.servers) };
}

/** A copy of the document on `server` that has synced. */
async function copyOn(server: AppServer, client: CoauthorClient, documentId: string): Promise<SyncClient> {
  const copy = new SyncClient({ baseURL: server.url, cookie: client.cookie, documentId });
  await copy.synced();
  return copy;
}

/** Types a paragraph and waits until the instance has acknowledged it (it holds it in memory). */
async function typeAcknowledged(copy: SyncClient, text: string): Promise<void> {
  await runEditorTool(copy.bound.editor, "insertBlocks", { markdown: text, position: { at: "end" } });
  await copy.flushed();
}

/** The document's text as storage holds it (snapshot and log, read directly). */
async function storedText(documentId: string): Promise<string> {
  if (!sql) throw new Error("no database");
  return (await storedDocumentState(sql, documentId)).text;
}

test("an update relayed to the other instance is stored when the instance that received it is killed before its append lands", async () => {
  const { servers, clients } = await start(2);
  const [first, second] = servers as [AppServer, AppServer];
  const documentId = await (clients[0] as CoauthorClient).createDocument("Start.");
  const onFirst = await copyOn(first, clients[0] as CoauthorClient, documentId);
  const onSecond = await copyOn(second, clients[1] as CoauthorClient, documentId);

  // Every append now takes seconds: the first instance is killed while its own is under way.
  proxy.slow(1_500);
  await typeAcknowledged(onFirst, "Relayed, then its receiver killed.");
  await expect
    .poll(() => onSecond.markdown(), { timeout: 2_000 })
    .toContain("Relayed, then its receiver killed.");
  await first.kill("SIGKILL");
  onFirst.close();
  proxy.slow(0);

  // The second instance holds the update (relayed through Redis) and stores it.
  await expect
    .poll(() => storedText(documentId), { timeout: 20_000 })
    .toContain("Relayed, then its receiver killed.");
  onSecond.close();
});

/** One instance whose only copy of an update is its own: stored while PostgreSQL refuses, the writer gone. */
async function holdingAnUnstoredUpdate(text: string) {
  const { servers, clients } = await start(1);
  const server = servers[0] as AppServer;
  const documentId = await (clients[0] as CoauthorClient).createDocument("Start.");
  const copy = await copyOn(server, clients[0] as CoauthorClient, documentId);
  const from = server.log.length;
  proxy.refuse();
  await typeAcknowledged(copy, text);
  await server.waitForLog(/could not store a document's changes/, { from });
  // The writer goes away: nobody else will send the update again.
  copy.close();
  return { server, documentId };
}

test("SIGTERM while PostgreSQL is unreachable: the stop keeps trying, and stores the update once the database is back within its grace", async () => {
  const text = "Typed during the outage, stored by the stop.";
  const { server, documentId } = await holdingAnUnstoredUpdate(text);
  const stopped = server.kill("SIGTERM");
  await new Promise((done) => setTimeout(done, 2_000));
  proxy.restore();
  await stopped;
  expect(await storedText(documentId)).toContain(text);
});

test("SIGTERM while PostgreSQL stays unreachable: the update waits in the data folder and the next start stores it", async () => {
  test.setTimeout(180_000);
  const text = "Typed during the outage, stored at the next start.";
  const { server, documentId } = await holdingAnUnstoredUpdate(text);
  const started = Date.now();
  await server.kill("SIGTERM");
  // The stop gave up after its grace, not before, and within its limit.
  expect(Date.now() - started).toBeGreaterThan(9_000);
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(server.log).toContain("stopping with changes the database did not take");
  proxy.restore();
  expect(await storedText(documentId)).not.toContain(text);
  const from = server.log.length;
  await server.start();
  await server.waitForLog(/stored updates a previous stop had left unstored/, { from });
  expect(await storedText(documentId)).toContain(text);
});
