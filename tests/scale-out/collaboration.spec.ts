import { runEditorTool } from "@coauthor/tools";
import postgres from "postgres";
import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { type Instances, startInstances } from "../lib/instances.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// Two instances of the app on one PostgreSQL database and one Redis: a keystroke made on one
// reaches a copy connected to the other, and run caps and rate limits count across both. Needs the
// machine's PostgreSQL and Redis.
let instances: Instances | undefined;
let servers: AppServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instances = await startInstances({ label: "scale", env: { RATE_LIMIT_CHAT_PER_MINUTE: "4" } });
  servers = instances.servers;
});

test.afterAll(async () => {
  await instances?.dispose();
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

  // Each update is stored by the instance that received it, and by the other one too, which got it
  // through Redis (relayed-updates.ts: merged, within seconds; were the first to die before its
  // append landed, this copy is the one left). Both keystrokes' rows, and the relayed copies of
  // each, are awaited: the server acknowledges an update before its row is written.
  const sql = postgres(instances?.databaseUrl ?? "", { max: 1, onnotice: () => undefined });
  const rows = () =>
    sql<{ total: number }[]>`
      select count(*)::int as total from document_updates where document_id = ${documentId}`.then(
      ([row]) => row?.total,
    );
  await expect.poll(rows, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
  await sql.end();

  // Whichever instance reads it, the document is the same.
  const viaFirst = await alice.documentMarkdown(documentId);
  const bob = await new CoauthorClient(second.url).signInWith({
    email: alice.email,
    password: alice.password,
  });
  expect(await bob.documentMarkdown(documentId)).toBe(viaFirst);
  expect(viaFirst).toBe("Across instances.\n\nTyped on one.\n\nTyped on two.");
});

test("a version saved on one instance names the person who typed through the other", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const owner = await new CoauthorClient(first.url).signIn();
  const member = await new CoauthorClient(first.url).signUp(freshCredentials("bob"));
  const documentId = await owner.createDocument("Shared across instances.");
  await owner.trpc("documents.share", { id: documentId, email: member.email, role: "editor" });
  await owner.trpc("versions.save", { documentId, name: "Before" });
  // The member types through the second instance; the owner saves a version on the first.
  const memberCopy = new SyncClient({ baseURL: second.url, cookie: member.cookie, documentId });
  await memberCopy.synced();
  await runEditorTool(memberCopy.bound.editor, "insertBlocks", {
    markdown: "Typed on two.",
    position: { at: "end" },
  });
  await memberCopy.flushed();
  memberCopy.close();
  // The second instance writes who edited within a second; a version saved after that names them.
  const named = async () => {
    await owner.trpc("versions.save", { documentId, name: "After" });
    const versions = await owner.trpc<Array<{ label: string; editedBy: string[] }>>(
      "versions.list",
      { documentId },
      "query",
    );
    return versions.find((version) => version.editedBy.length > 0)?.editedBy ?? [];
  };
  await expect.poll(named, { timeout: 10_000 }).toEqual(["Test bob"]);
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

test("six co-editors starting runs on one document at once, across both instances: exactly the document cap is accepted", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const owner = await new CoauthorClient(first.url).signIn();
  const documentId = await owner.createDocument("Shared across instances.");
  const editors = [owner];
  for (let i = 0; i < 5; i++) {
    const editor = await new CoauthorClient(i % 2 === 0 ? second.url : first.url).signIn();
    await owner.trpc("documents.share", { id: documentId, email: editor.email, role: "editor" });
    editors.push(editor);
  }
  const responses = await Promise.all(
    editors.map((editor) =>
      editor.fetch("/api/llm/agent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ documentId, prompt: "count to 5", mode: "agent" }),
      }),
    ),
  );
  const statuses = responses.map((response) => response.status).sort();
  expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
  const runs = await owner.trpc<{ status: string }[]>("assistant.runs", { documentId }, "query");
  expect(runs.map((run) => run.status)).toEqual(["running", "running"]);
  for (const [index, response] of responses.entries()) {
    const runId = response.headers.get("x-run-id");
    if (response.status === 200 && runId) await editors[index]?.cancel(runId);
    await response.body?.cancel();
  }
});

test("a rate limit counts across instances (Redis): a burst of chat requests on both gets exactly the limit", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const alice = await new CoauthorClient(first.url).signIn();
  const documentId = await alice.createDocument("Words.");
  const onSecond = await new CoauthorClient(second.url).signInWith({
    email: alice.email,
    password: alice.password,
  });
  const responses = await Promise.all(
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
      (i % 2 === 0 ? alice : onSecond).fetch("/api/llm/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ documentId, prompt: "words?", mode: "chat" }),
      }),
    ),
  );
  // RATE_LIMIT_CHAT_PER_MINUTE=4 on these servers.
  expect(responses.map((response) => response.status).sort()).toEqual([
    200, 200, 200, 200, 429, 429, 429, 429,
  ]);
  for (const response of responses) await response.arrayBuffer();
});

test("a sign-out on one instance ends that session on the other at once; sign out everywhere ends every session on both", async () => {
  const [first, second] = servers as [AppServer, AppServer];
  const alice = await new CoauthorClient(first.url).signIn();
  const credentials = { email: alice.email, password: alice.password };
  const laptop = await new CoauthorClient(second.url).signInWith(credentials);
  const phone = await new CoauthorClient(second.url).signInWith(credentials);
  const sessions = [alice, laptop, phone];
  /** The status of a request with `session`'s cookie sent to `server`. */
  const statusOn = async (server: AppServer, session: CoauthorClient) => {
    const client = new CoauthorClient(server.url);
    client.cookie = session.cookie;
    return (await client.trpcCall("documents.list", undefined, "query")).status;
  };
  // Every session has been read on both instances (where an instance might keep it).
  for (const server of servers)
    for (const session of sessions) expect(await statusOn(server, session)).toBe(200);

  expect((await laptop.signOut()).status).toBe(200);
  expect(await statusOn(first, laptop)).toBe(401);
  expect(await statusOn(first, phone)).toBe(200);

  expect((await alice.signOutEverywhere()).status).toBe(200);
  for (const server of servers)
    for (const session of sessions) expect(await statusOn(server, session)).toBe(401);
});
