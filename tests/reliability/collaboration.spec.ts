import { runEditorTool } from "@coauthor/tools";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

// The sync server under stress: killed while people type, and many people typing at once.
const server = serverForThisFile({});

const append = (copy: SyncClient, markdown: string) =>
  runEditorTool(copy.bound.editor, "insertBlocks", { markdown, position: { at: "end" } });

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The block ids of a copy, in document order. */
const blockIdsOf = (copy: SyncClient) =>
  copy.bound.editor
    .getEditorState()
    .toJSON()
    .root.children.map((child) => (child as { $?: { blockId?: string } }).$?.blockId ?? "");

/** Paragraph texts of a copy's Markdown, sorted (concurrent appends may interleave in any order). */
const lines = (markdown: string) => markdown.split("\n\n").filter(Boolean).sort();

test("a server SIGKILLed while two writers type comes back; both reconnect by themselves and nothing is lost", async () => {
  test.setTimeout(120_000);
  const alice = await new CoauthorClient(server.url).signIn();
  const bob = await new CoauthorClient(server.url).signIn();
  const documentId = await alice.createDocument("Start.");
  await alice.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  const copies = [alice, bob].map(
    (user) => new SyncClient({ baseURL: server.url, cookie: user.cookie, documentId }),
  );
  await Promise.all(copies.map((copy) => copy.synced()));

  const expected = ["Start."];
  const type = async (copy: SyncClient, who: string, from: number, to: number) => {
    for (let n = from; n <= to; n++) {
      await append(copy, `${who} ${n}`);
      expected.push(`${who} ${n}`);
      await pause(15);
    }
  };
  // Typing, the kill in the middle of it, typing while the server is down, then the restart.
  const typing = Promise.all([
    type(copies[0] as SyncClient, "Alice", 1, 20),
    type(copies[1] as SyncClient, "Bob", 1, 20),
  ]);
  // The kill lands in the middle of the typing.
  await expect.poll(() => expected.length, { intervals: [5] }).toBeGreaterThanOrEqual(12);
  await server.kill("SIGKILL");
  await typing;
  await Promise.all([
    type(copies[0] as SyncClient, "Alice", 21, 25),
    type(copies[1] as SyncClient, "Bob", 21, 25),
  ]);
  await server.start();

  for (const copy of copies) await copy.flushed(30_000);
  const want = [...expected].sort();
  for (const copy of copies)
    await expect.poll(() => lines(copy.markdown()), { timeout: 10_000 }).toEqual(want);
  // What the server stored, read after the copies went away and after one more restart: the same
  // text, and the same block ids as every copy had.
  const ids = blockIdsOf(copies[0] as SyncClient);
  expect(blockIdsOf(copies[1] as SyncClient)).toEqual(ids);
  for (const copy of copies) copy.close();
  expect(lines(await alice.documentMarkdown(documentId))).toEqual(want);
  await server.kill("SIGKILL");
  await server.start();
  expect(lines(await alice.documentMarkdown(documentId))).toEqual(want);
  const fresh = new SyncClient({ baseURL: server.url, cookie: alice.cookie, documentId });
  await fresh.synced();
  expect(blockIdsOf(fresh)).toEqual(ids);
  fresh.close();
});

test("twenty writers typing at once on one document converge to the same text, with every word", async () => {
  test.setTimeout(120_000);
  const owner = await new CoauthorClient(server.url).signIn();
  const documentId = await owner.createDocument("Shared.");
  const writers = await Promise.all(
    Array.from({ length: 20 }, async () => {
      const writer = await new CoauthorClient(server.url).signIn();
      await owner.trpc("documents.share", { id: documentId, email: writer.email, role: "editor" });
      return writer;
    }),
  );
  const copies = writers.map(
    (writer) => new SyncClient({ baseURL: server.url, cookie: writer.cookie, documentId }),
  );
  await Promise.all(copies.map((copy) => copy.synced()));
  await Promise.all(
    copies.map(async (copy, index) => {
      for (let n = 1; n <= 5; n++) {
        await append(copy, `Writer ${index} line ${n}`);
        await pause(5);
      }
    }),
  );
  await Promise.all(copies.map((copy) => copy.flushed()));
  const want = [
    "Shared.",
    ...copies.flatMap((_, index) => [1, 2, 3, 4, 5].map((n) => `Writer ${index} line ${n}`)),
  ].sort();
  const first = copies[0] as SyncClient;
  await expect.poll(() => lines(first.markdown()), { timeout: 10_000 }).toEqual(want);
  const converged = first.markdown();
  for (const copy of copies) await expect.poll(() => copy.markdown(), { timeout: 10_000 }).toBe(converged);
  expect(await owner.documentMarkdown(documentId)).toBe(converged);
  for (const copy of copies) copy.close();
});
