import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { createDocumentEditor } from "@coauthor/tools";
import postgres from "postgres";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { addComment } from "../lib/comments.ts";
import { createTestDatabase, requireSharedServices } from "../lib/shared-services.ts";
import { filesHolding, type Place, pgliteTablesHolding, tablesHolding } from "../lib/store-search.ts";
import { expect, test } from "../lib/test.ts";

// Deletion deletes (issue #13, point 5): a deleted document leaves nothing of its text in any
// store — every table of the app's database and of the Postgres world, every file of the data
// folder (the local world's runs, events and streams) — and the runs going on it stop.
// Each server runs on its own PostgreSQL database (so the test can read every table while the
// server runs), once with the local world (files) and once with the Postgres world (tables); one
// more runs the default setup (embedded PGlite), whose tables are read once it has stopped.

const WORLD_SETUP = resolve(
  import.meta.dirname,
  "../../apps/editor/node_modules/@workflow/world-postgres/bin/setup.js",
);

interface Stores {
  server: AppServer;
  databaseUrl: string;
  drop: () => Promise<void>;
}

/** A server of its own on a fresh database, on the given world. */
async function startStores(label: string, world: "local" | "postgres", env: Record<string, string> = {}) {
  const database = await createTestDatabase(label);
  const worldEnv: Record<string, string> =
    world === "postgres"
      ? { WORKFLOW_TARGET_WORLD: "@workflow/world-postgres", WORKFLOW_POSTGRES_URL: database.url }
      : {};
  const all = {
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
    ...worldEnv,
    ...env,
  };
  if (world === "postgres") {
    const setup = spawnSync(process.execPath, [WORLD_SETUP], {
      env: { ...process.env, ...all },
      encoding: "utf8",
    });
    if (setup.status !== 0) throw new Error(`world setup failed:\n${setup.stdout}\n${setup.stderr}`);
  }
  const server = new AppServer(all);
  await server.start();
  return { server, databaseUrl: database.url, drop: database.drop } satisfies Stores;
}

/** Every place in the server's stores holding `text`: tables (all schemas) and data-folder files. */
async function placesHolding(stores: Stores, text: string, except: string[] = []): Promise<Place[]> {
  const tables = await tablesHolding(stores.databaseUrl, text, except);
  return [...tables, ...filesHolding(stores.server.dataDir, text).map((file) => `file:${file}`)];
}

/** Asks in Chat mode (the answer and the question are kept in the conversation). */
async function chat(client: CoauthorClient, documentId: string, prompt: string): Promise<string> {
  const response = await client.fetch("/api/llm/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt, mode: "chat" }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

/**
 * A document holding `marker`, with what the assistant keeps about it: an agent run that reads it
 * (its readDocument result holds the text), one whose prompt holds it, and a chat whose question
 * and answer (the headings) hold it; and a comment thread on it (its text in the document's state,
 * its id in the threads' summary). Returns the document, the runs' ids and the thread's.
 */
async function documentWithHistory(owner: CoauthorClient, marker: string) {
  const markdown = `# Heading ${marker}\n\nThe ${marker} paragraph.`;
  const documentId = await owner.createDocument(markdown);
  // The tools run on a copy of the document, as in the writer's tab.
  const editor = createDocumentEditor({ markdown });
  const summary = await owner.runAgent(documentId, "summarize", { editor });
  expect(summary.events.at(-1)).toMatchObject({ type: "finish" });
  const append = await owner.runAgent(documentId, `append "${marker} appended"`, { editor });
  expect(append.events.at(-1)).toMatchObject({ type: "finish" });
  expect(await chat(owner, documentId, `Where is ${marker}?`)).toContain(marker);
  // The runs' ends, and with them the conversation, are recorded just after their last frame.
  await expect
    .poll(async () => {
      const stored = await owner.trpc<unknown[]>("assistant.conversation", { documentId }, "query");
      return stored.length;
    })
    .toBe(6);
  const comment = await addComment(owner, documentId, marker, `Is ${marker} the right word?`);
  const threadId = comment.data?.threadId;
  if (threadId === undefined) throw new Error(`comments.add answered ${comment.status}`);
  return { documentId, runIds: [summary.runId, append.runId], threadId };
}

for (const world of ["local", "postgres"] as const) {
  test.describe(`deleting a document (${world} world)`, () => {
    let stores: Stores | undefined;
    const current = () => {
      if (!stores) throw new Error("the server did not start");
      return stores;
    };

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      await requireSharedServices();
      stores = await startStores(`deletion_${world}`, world);
    });

    test.afterAll(async () => {
      // The sweep that ran at start (listing this world's runs) did not fail either.
      expect(stores?.server.log).not.toContain("retention sweep failed");
      await stores?.server.dispose();
      await stores?.drop();
    });

    test("removes its text from every table and every file: runs, tool results, conversation, update log, workflow runs", async () => {
      test.setTimeout(90_000);
      const { server } = current();
      const marker = `Marker${randomUUID().replaceAll("-", "")}`;
      const owner = await new CoauthorClient(server.url).signIn();
      const { documentId, runIds, threadId } = await documentWithHistory(owner, marker);

      // The search finds the text where it is kept, so its empty answer below means something.
      expect(await placesHolding(current(), threadId)).toContain("public.comment_threads");
      expect(await placesHolding(current(), marker)).toEqual(
        expect.arrayContaining([
          "public.agent_runs",
          "public.conversation_messages",
          "public.tool_call_results",
          expect.stringMatching(
            world === "local" ? /^file:workflow\/(events|streams|runs)\// : /^workflow\./,
          ),
        ]),
      );

      // A stranger's deletion is refused and changes nothing.
      const stranger = await new CoauthorClient(server.url).signIn();
      const refused = await stranger.trpcCall("documents.delete", { id: documentId });
      expect([403, 404]).toContain(refused.status);
      expect(await placesHolding(current(), marker)).toContain("public.tool_call_results");

      const deleted = await owner.trpcCall("documents.delete", { id: documentId });
      expect(deleted.status).toBe(200);
      // Done when the answer arrives, in every store.
      expect(await placesHolding(current(), marker)).toEqual([]);
      for (const runId of runIds) {
        expect(await placesHolding(current(), runId, ["public.deleted_runs"])).toEqual([]);
      }
      expect(await placesHolding(current(), threadId)).toEqual([]);
    });

    test("stops a run going on it: the stream ends, no result is accepted any more, and the run is gone", async () => {
      test.setTimeout(90_000);
      const { server } = current();
      const owner = await new CoauthorClient(server.url).signIn();
      const documentId = await owner.createDocument("Counting.");
      let deletedAt = 0;
      const run = await owner.runAgent(documentId, "count to 40", {
        onEvent: async (event) => {
          if (event.type !== "tool-call" || deletedAt > 0) return undefined;
          deletedAt = event.id;
          const deleted = await owner.trpcCall("documents.delete", { id: documentId });
          expect(deleted.status).toBe(200);
          return undefined;
        },
      });
      // The stream ended (runAgent returned) well before 40 calls, with a last frame saying so.
      expect(deletedAt).toBeGreaterThan(0);
      expect(run.events.filter((event) => event.type === "tool-call").length).toBeLessThan(40);
      expect(run.events.at(-1)?.type).toMatch(/finish|error/);
      // The result for the call that was going when the document went is refused.
      expect(run.callbacks.at(-1)?.status).toBeGreaterThanOrEqual(400);
      // Nothing of the run is left but ids: its tombstone (which stops its step on any instance)
      // and, on the Postgres world, a delivery still queued for it (the job names the run only).
      const idsOnly = ["public.deleted_runs", "graphile_worker._private_jobs"];
      await expect.poll(() => placesHolding(current(), run.runId, idsOnly), { timeout: 20_000 }).toEqual([]);
      const sql = postgres(current().databaseUrl, { max: 1, onnotice: () => undefined });
      try {
        const tombstones = await sql`select run_id from deleted_runs where run_id = ${run.runId}`;
        expect(tombstones).toHaveLength(1);
      } finally {
        await sql.end();
      }
    });
  });
}

test("deleting a document on the embedded database (PGlite) leaves its text in no table and no workflow file", async () => {
  test.setTimeout(120_000);
  // The default setup: PGlite in the data folder, local world. PGlite is one process, so its
  // tables are searched once the server has stopped.
  const server = new AppServer({
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
  });
  try {
    await server.start();
    const owner = await new CoauthorClient(server.url).signIn();
    const marker = `Gone${randomUUID().replaceAll("-", "")}`;
    const keptMarker = `Kept${randomUUID().replaceAll("-", "")}`;
    const { documentId, runIds, threadId } = await documentWithHistory(owner, marker);
    const kept = await documentWithHistory(owner, keptMarker);
    expect((await owner.trpcCall("documents.delete", { id: documentId })).status).toBe(200);

    // PGlite's own files are left out of the file search: deleted rows stay in its pages until
    // PostgreSQL vacuums them (they are no longer in any table, which is what is searched).
    const workflowFiles = (text: string) =>
      filesHolding(server.dataDir, text).filter((file) => !file.startsWith("pglite/"));
    expect(workflowFiles(marker)).toEqual([]);
    expect(workflowFiles(kept.runIds[0] ?? "")).not.toEqual([]);
    await server.kill("SIGTERM");
    const pglite = join(server.dataDir, "pglite");
    expect(await pgliteTablesHolding(pglite, marker)).toEqual([]);
    for (const runId of runIds)
      expect(await pgliteTablesHolding(pglite, runId, ["public.deleted_runs"])).toEqual([]);
    expect(await pgliteTablesHolding(pglite, threadId)).toEqual([]);
    expect(await pgliteTablesHolding(pglite, kept.threadId)).toContain("public.comment_threads");
    // The same search finds the document that was not deleted, in each kind of table.
    expect(await pgliteTablesHolding(pglite, keptMarker)).toEqual(
      expect.arrayContaining([
        "public.agent_runs",
        "public.conversation_messages",
        "public.documents",
        "public.tool_call_results",
      ]),
    );
  } finally {
    await server.dispose();
  }
});

test.describe("the retention sweep", () => {
  let stores: Stores | undefined;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await requireSharedServices();
    stores = await startStores("retention", "local", {
      RUN_LOG_RETENTION_DAYS: "1",
      RETENTION_SWEEP_INTERVAL_MS: "500",
    });
  });

  test.afterAll(async () => {
    await stores?.server.dispose();
    await stores?.drop();
  });

  test("removes run logs older than RUN_LOG_RETENTION_DAYS and expired rate-limit rows, and keeps recent ones", async () => {
    test.setTimeout(90_000);
    if (!stores) throw new Error("the server did not start");
    const current = stores;
    const owner = await new CoauthorClient(current.server.url).signIn();
    const oldMarker = `Old${randomUUID().replaceAll("-", "")}`;
    const newMarker = `New${randomUUID().replaceAll("-", "")}`;
    const oldDocument = await owner.createDocument(`# ${oldMarker}\n\nKept text.`);
    const newDocument = await owner.createDocument(`# ${newMarker}\n\nKept text.`);
    const oldRun = await owner.runAgent(oldDocument, "summarize", {
      editor: createDocumentEditor({ markdown: `# ${oldMarker}\n\nKept text.` }),
    });
    const newRun = await owner.runAgent(newDocument, "summarize", {
      editor: createDocumentEditor({ markdown: `# ${newMarker}\n\nKept text.` }),
    });
    const sql = postgres(current.databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      // Both runs recorded as ended, then the first one moved two days back.
      await expect
        .poll(async () => {
          const rows =
            await sql`select id from agent_runs where id in ${sql([oldRun.runId, newRun.runId])} and status <> 'running' and summary is not null`;
          return rows.length;
        })
        .toBe(2);
      await sql`update agent_runs set created_at = now() - interval '2 days', finished_at = now() - interval '2 days' where id = ${oldRun.runId}`;
      const expiredKey = `test:expired:${randomUUID()}`;
      const liveKey = `test:live:${randomUUID()}`;
      await sql`insert into rate_limit_points (key, points, expire) values (${expiredKey}, 1, now() - interval '1 minute'), (${liveKey}, 1, now() + interval '1 hour')`;

      // The old run's log goes from the world (files) and the tool results; its row (History)
      // and the conversation stay.
      const isLog = (place: Place) => place.startsWith("file:") || place === "public.tool_call_results";
      await expect
        .poll(async () => (await placesHolding(current, oldRun.runId)).filter(isLog), { timeout: 15_000 })
        .toEqual([]);
      expect(await placesHolding(current, oldRun.runId)).toContain("public.agent_runs");
      expect(await placesHolding(current, oldMarker)).not.toContain("public.tool_call_results");
      await expect
        .poll(async () => (await sql`select key from rate_limit_points where key = ${expiredKey}`).length)
        .toBe(0);

      // The recent run, its tool results, its document and the live counter are all still there.
      const kept = await placesHolding(current, newRun.runId);
      expect(kept).toEqual(expect.arrayContaining(["public.agent_runs", "public.tool_call_results"]));
      expect(kept.some((place) => place.startsWith("file:workflow/runs/"))).toBe(true);
      expect(await owner.documentMarkdown(oldDocument)).toContain(oldMarker);
      expect(await sql`select key from rate_limit_points where key = ${liveKey}`).toHaveLength(1);
      // History still lists the old run; its event log answers that it expired.
      const events = await owner.fetch(`/api/runs/${oldRun.runId}/events`);
      expect(events.status).toBe(410);
      const recent = await owner.fetch(`/api/runs/${newRun.runId}/events`);
      expect(recent.status).toBe(200);
      expect(await recent.text()).toContain('"type":"finish"');
      expect(current.server.log).not.toContain("retention sweep failed");
    } finally {
      await sql.end();
    }
  });
});
