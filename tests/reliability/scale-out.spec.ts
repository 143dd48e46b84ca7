import { randomBytes, randomUUID } from "node:crypto";
import { connect } from "node:net";
import { runEditorTool } from "@coauthor/tools";
import postgres from "postgres";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// Two instances of the app on one PostgreSQL database and one Redis: a keystroke made on one
// reaches a copy connected to the other. Needs the machine's PostgreSQL and Redis (the project's
// machines run them on their standard ports; TEST_DATABASE_URL / TEST_REDIS_URL point elsewhere).
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || defaultPort), hostname);
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const database = `coauthor_scale_${randomUUID().replaceAll("-", "")}`;
const secrets = {
  SESSION_SECRET: randomBytes(32).toString("base64url"),
  HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
};
let servers: AppServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (!(await reachable(ADMIN_URL, 5432)))
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (set TEST_DATABASE_URL); this test needs it`,
    );
  if (!(await reachable(REDIS_URL, 6379)))
    throw new Error(`Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL); this test needs it`);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${database}`);
  await admin.end();
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  const env = { DATABASE_URL: databaseUrl.toString(), REDIS_URL, ...secrets };
  servers = [new AppServer(env), new AppServer(env)];
  // One after the other: the first applies the migrations.
  for (const server of servers) await server.start();
});

test.afterAll(async () => {
  for (const server of servers) await server.dispose();
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.end();
});

test("a keystroke on one instance reaches a copy connected to the other, and both store the same document", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const alice = await new CoauthorClient(first.url).signIn();
  const documentId = await alice.createDocument("Across instances.");
  // The same session works on both instances (shared database and secret).
  const onFirst = new SyncClient({ baseURL: first.url, cookie: alice.cookie, documentId });
  const onSecond = new SyncClient({ baseURL: second.url, cookie: alice.cookie, documentId });
  await Promise.all([onFirst.synced(), onSecond.synced()]);

  await runEditorTool(onFirst.bound.editor, "insertBlocks", {
    markdown: "Typed on one.",
    position: { at: "end" },
  });
  await expect.poll(() => onSecond.markdown(), { timeout: 5_000 }).toBe("Across instances.\n\nTyped on one.");
  await runEditorTool(onSecond.bound.editor, "insertBlocks", {
    markdown: "Typed on two.",
    position: { at: "end" },
  });
  await expect
    .poll(() => onFirst.markdown(), { timeout: 5_000 })
    .toBe("Across instances.\n\nTyped on one.\n\nTyped on two.");
  await Promise.all([onFirst.flushed(), onSecond.flushed()]);
  onFirst.close();
  onSecond.close();

  // Each update was stored once, by the instance that received it (the other got it through Redis).
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  const sql = postgres(databaseUrl.toString(), { max: 1, onnotice: () => undefined });
  const [counts] = await sql<{ total: number; distinct: number }[]>`
    select count(*)::int as total, count(distinct "update")::int as distinct
    from document_updates where document_id = ${documentId}`;
  await sql.end();
  expect(counts?.total).toBeGreaterThanOrEqual(2);
  expect(counts?.distinct).toBe(counts?.total);

  // Whichever instance reads it, the document is the same.
  const viaFirst = await alice.documentMarkdown(documentId);
  const bob = await new CoauthorClient(second.url).signInWith({
    email: alice.email,
    password: alice.password,
  });
  expect(await bob.documentMarkdown(documentId)).toBe(viaFirst);
  expect(viaFirst).toBe("Across instances.\n\nTyped on one.\n\nTyped on two.");
});

test("removing a member on one instance closes their socket on the other within a second", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const owner = await new CoauthorClient(first.url).signIn();
  const member = await new CoauthorClient(first.url).signIn();
  const documentId = await owner.createDocument("Shared across instances.");
  await owner.trpc("documents.share", { id: documentId, email: member.email, role: "editor" });
  const memberCopy = new SyncClient({ baseURL: second.url, cookie: member.cookie, documentId });
  await memberCopy.synced();

  await owner.trpc("documents.removeMember", { id: documentId, userId: member.userId });
  await expect.poll(() => memberCopy.closes.length, { timeout: 1_000 }).toBeGreaterThan(0);
  memberCopy.close();
});
