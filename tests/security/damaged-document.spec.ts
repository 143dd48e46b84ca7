import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { YJS_ROOT_NAME } from "@coauthor/tools";
import type { Browser, Page } from "@playwright/test";
import postgres from "postgres";
import * as Y from "yjs";
import { expectNoAxeViolations } from "../e2e/accessibility-helpers.ts";
import { AppServer } from "../lib/app-server.ts";
import { type CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { createTestDatabase, requireSharedServices } from "../lib/shared-services.ts";
import { expect, test } from "../lib/test.ts";

// Stored content cannot make a document a dead end (issue #13, point 4): a document whose storage
// a bug or a bad write damaged is reported to everyone who opens it (no 500, no reconnect loop),
// and its owner, only its owner, restores the last good version, after which it opens live and
// chat reads it again. The server runs on a PostgreSQL database of its own, so the test can damage
// the stored state directly.

let server: AppServer | undefined;
let database: { url: string; drop: () => Promise<void> } | undefined;

test.beforeAll(async () => {
  await requireSharedServices();
  database = await createTestDatabase("damaged");
  server = new AppServer({
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    HOOK_TOKEN_SECRET: randomBytes(32).toString("base64url"),
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await database?.drop();
});

function current(): { server: AppServer; database: { url: string } } {
  if (!server || !database) throw new Error("the server did not start");
  return { server, database };
}

/** An update adding a node of a type no editor knows, built on the stored snapshot (as a buggy writer would). */
function unknownNodeUpdate(snapshot: Uint8Array): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, snapshot);
  const before = Y.encodeStateVector(doc);
  const block = new Y.XmlText();
  doc.get(YJS_ROOT_NAME, Y.XmlText).insertEmbed(0, block);
  block.setAttribute("__type", "script-runner");
  return Y.encodeStateAsUpdate(doc, before);
}

/** Runs `work` on the server's database (the test's own connection). */
async function withDatabase<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(current().database.url, { max: 1, onnotice: () => undefined });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

/**
 * A page signed in as `client` on the test's server, recording every sync socket it opens and
 * every 5xx answer it gets.
 */
async function openAs(browser: Browser, client: CoauthorClient, documentId: string) {
  const context = await browser.newContext();
  const { url } = current().server;
  await context.addCookies(
    client.cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return {
        name: pair.slice(0, at),
        value: pair.slice(at + 1),
        url,
        httpOnly: true,
        sameSite: "Lax" as const,
      };
    }),
  );
  const page = await context.newPage();
  const record = { sockets: 0, closed: 0, serverErrors: [] as string[] };
  page.on("websocket", (socket) => {
    if (!socket.url().includes("/collab")) return;
    record.sockets += 1;
    socket.on("close", () => {
      record.closed += 1;
    });
  });
  page.on("response", (response) => {
    if (response.status() >= 500) record.serverErrors.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${url}/documents/${documentId}`);
  return { page, record, close: () => context.close() };
}

async function chat(client: CoauthorClient, documentId: string): Promise<Response> {
  return client.fetch("/api/llm/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: "What is in it?", mode: "chat" }),
  });
}

function notice(page: Page) {
  return page.getByTestId("damaged-notice");
}

test("a document with an unknown node type in its log shows the damage, the owner restores it, and it opens live again", async ({
  browser,
}) => {
  const { url } = current().server;
  const {
    owner,
    member: viewer,
    documentId,
  } = await sharedDocument(url, "viewer", "# Plan\n\nThe good paragraph.");
  // Nobody has opened it yet: the sync server loads it from storage once someone does.
  await withDatabase(async (sql) => {
    const [row] = await sql<{ yjs_snapshot: Uint8Array }[]>`
      select yjs_snapshot from documents where id = ${documentId}`;
    if (!row) throw new Error("no stored document");
    const bad = Buffer.from(unknownNodeUpdate(new Uint8Array(row.yjs_snapshot)));
    await sql`insert into document_updates (document_id, update) values (${documentId}, ${bad})`;
  });

  // Chat, export and the agent answer 409 document_damaged, never a 500.
  const chatAnswer = await chat(owner, documentId);
  expect(chatAnswer.status).toBe(409);
  expect(await chatAnswer.json()).toMatchObject({ code: "document_damaged" });
  expect((await owner.trpcCall("documents.export", { id: documentId }, "query")).status).toBe(409);
  const agent = await owner.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: 'append "more"' }),
  });
  expect(agent.status).toBe(409);

  // The owner's page shows the notice with the last good version's time, and stops reconnecting.
  const ownerPage = await openAs(browser, owner, documentId);
  await expect(notice(ownerPage.page)).toContainText("This document could not be loaded");
  await expect(ownerPage.page.getByTestId("last-good-at")).toContainText("The last good version is from");
  await expect(ownerPage.page.getByTestId("save-status")).toHaveAttribute("data-state", "damaged");
  await expect.poll(() => ownerPage.record.closed).toBe(1);
  await expectNoAxeViolations(ownerPage.page, "damaged-document notice, owner");

  // A viewer sees that it is damaged and who can restore it, and cannot restore it.
  const viewerPage = await openAs(browser, viewer, documentId);
  await expect(notice(viewerPage.page)).toContainText("Only the owner of this document can restore");
  await expect(viewerPage.page.getByRole("button", { name: "Restore last good version" })).toHaveCount(0);
  const refused = await viewer.trpcCall("documents.restoreLastGood", { id: documentId });
  expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN" });
  await expect.poll(() => viewerPage.record.closed).toBe(1);
  await expectNoAxeViolations(viewerPage.page, "damaged-document notice, viewer");
  // All that took a while: neither page opened a second socket (no reconnect loop).
  expect(ownerPage.record.sockets).toBe(1);
  expect(viewerPage.record.sockets).toBe(1);

  // The owner restores it: the page reloads onto the last good version, live.
  await ownerPage.page.getByRole("button", { name: "Restore last good version" }).click();
  await expect(ownerPage.page.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await expect(notice(ownerPage.page)).toHaveCount(0);
  await expect(ownerPage.page.getByTestId("document-editor")).toContainText("The good paragraph.");
  await expect(ownerPage.page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "true");
  // It is live: what the owner types is saved and reaches the server.
  await ownerPage.page.getByTestId("document-editor").locator("p").last().click();
  await ownerPage.page.keyboard.press("End");
  await ownerPage.page.keyboard.type(" Restored.");
  await expect(ownerPage.page.getByTestId("save-status")).toHaveText("Saved", { timeout: 10_000 });
  await expect.poll(() => owner.documentMarkdown(documentId)).toBe("# Plan\n\nThe good paragraph. Restored.");

  // Chat reads it again; the viewer, reloading, gets it live too.
  const answer = await chat(owner, documentId);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain("Plan");
  await viewerPage.page.reload();
  await expect(viewerPage.page.getByTestId("document-editor")).toContainText("The good paragraph. Restored.");
  await expect(notice(viewerPage.page)).toHaveCount(0);

  // The damaged bytes are kept for an operator; there is nothing left to restore.
  const copies = await withDatabase(
    (sql) =>
      sql<
        { updates: string[] }[]
      >`select updates from damaged_document_copies where document_id = ${documentId}`,
  );
  expect(copies).toHaveLength(1);
  expect(copies[0]?.updates).toHaveLength(1);
  expect(await owner.trpcCall("documents.restoreLastGood", { id: documentId })).toMatchObject({
    status: 409,
    code: "CONFLICT",
  });
  expect([...ownerPage.record.serverErrors, ...viewerPage.record.serverErrors]).toEqual([]);
  await ownerPage.close();
  await viewerPage.close();
});

test("garbage bytes in place of the snapshot: every reader answers 409 and the owner restores it", async ({
  browser,
}) => {
  const { url } = current().server;
  const { owner, documentId } = await sharedDocument(url, "editor", "Kept text.");
  await withDatabase(async (sql) => {
    const garbage = Buffer.from([0xff, 0xfe, 0x00, 0x13, 0x37, 0x42]);
    await sql`update documents set yjs_snapshot = ${garbage} where id = ${documentId}`;
  });
  expect((await chat(owner, documentId)).status).toBe(409);
  expect((await owner.trpcCall("documents.export", { id: documentId }, "query")).status).toBe(409);

  const ownerPage = await openAs(browser, owner, documentId);
  await expect(notice(ownerPage.page)).toContainText("This document could not be loaded");
  await ownerPage.page.getByRole("button", { name: "Restore last good version" }).click();
  await expect(ownerPage.page.getByTestId("document-editor")).toContainText("Kept text.", {
    timeout: 15_000,
  });
  expect(await owner.documentMarkdown(documentId)).toBe("Kept text.");
  expect(ownerPage.record.serverErrors).toEqual([]);
  await ownerPage.close();
});

test("with no kept state, the newest version that reads is offered: anyone exports it as Markdown, the owner restores it", async ({
  browser,
}) => {
  const { url } = current().server;
  const {
    owner,
    member: viewer,
    documentId,
  } = await sharedDocument(url, "viewer", "# Draft\n\nThe words of the draft.");
  await owner.trpc("versions.save", { documentId, name: "First draft" });
  await withDatabase(async (sql) => {
    const garbage = Buffer.from([0xff, 0xfe, 0x00, 0x13, 0x37, 0x42]);
    await sql`update documents set yjs_snapshot = ${garbage}, last_good_snapshot = null, last_good_at = null
      where id = ${documentId}`;
  });
  expect((await chat(owner, documentId)).status).toBe(409);

  // The viewer is told which version is good and takes its words away.
  const viewerPage = await openAs(browser, viewer, documentId);
  await expect(viewerPage.page.getByTestId("last-good-at")).toContainText(
    "The last good version is “First draft”, from",
  );
  await expect(viewerPage.page.getByRole("button", { name: "Restore last good version" })).toHaveCount(0);
  const downloaded = viewerPage.page.waitForEvent("download");
  await viewerPage.page.getByRole("button", { name: "Export it as Markdown" }).click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toBe("last-good-version.md");
  expect(await readFile(await file.path(), "utf8")).toBe("# Draft\n\nThe words of the draft.");
  expect(await viewer.trpcCall("documents.restoreLastGood", { id: documentId })).toMatchObject({
    status: 403,
  });

  // The owner restores it: the document opens live on the version's words.
  const ownerPage = await openAs(browser, owner, documentId);
  await ownerPage.page.getByRole("button", { name: "Restore last good version" }).click();
  await expect(ownerPage.page.getByTestId("document-editor")).toContainText("The words of the draft.", {
    timeout: 15_000,
  });
  await expect(notice(ownerPage.page)).toHaveCount(0);
  expect(await owner.documentMarkdown(documentId)).toBe("# Draft\n\nThe words of the draft.");
  // A version that is not the document's is refused, and a document that loads has nothing to restore.
  expect(
    await owner.trpcCall("documents.lastGoodMarkdown", { id: documentId, versionId: 999_999 }, "query"),
  ).toMatchObject({ status: 404 });
  expect([...ownerPage.record.serverErrors, ...viewerPage.record.serverErrors]).toEqual([]);
  await ownerPage.close();
  await viewerPage.close();
});

/**
 * An update nesting `depth` quotes at the top of the stored document, the innermost holding
 * `words` followed by a NUL: content no door accepts any more, as it could be stored before.
 */
function pastTheRuleUpdate(snapshot: Uint8Array, depth: number, words: string): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, snapshot);
  const before = Y.encodeStateVector(doc);
  const element = () => {
    const node = new Y.XmlText();
    node.setAttribute("__type", "quote");
    return node;
  };
  doc.transact(() => {
    let parent = element();
    doc.get(YJS_ROOT_NAME, Y.XmlText).insertEmbed(0, parent);
    for (let level = 1; level < depth; level++) {
      const child = element();
      parent.insertEmbed(0, child);
      parent = child;
    }
    const text = new Y.Map<unknown>();
    parent.insertEmbed(0, text);
    for (const [key, value] of Object.entries({
      __type: "text",
      __format: 0,
      __style: "",
      __mode: 0,
      __detail: 0,
    }))
      text.set(key, value);
    parent.insert(1, `${words}\u0000`);
  });
  return Y.encodeStateAsUpdate(doc, before);
}

test("content stored past the rule before it was enforced (2,000 nested quotes, a NUL) opens repaired, every word kept", async ({
  browser,
}) => {
  const { url } = current().server;
  const { owner, documentId } = await sharedDocument(url, "editor", "The good paragraph.");
  await withDatabase(async (sql) => {
    const [row] = await sql<{ yjs_snapshot: Uint8Array }[]>`
      select yjs_snapshot from documents where id = ${documentId}`;
    if (!row) throw new Error("no stored document");
    const deep = Buffer.from(pastTheRuleUpdate(new Uint8Array(row.yjs_snapshot), 2_000, "Deep words"));
    await sql`insert into document_updates (document_id, update) values (${documentId}, ${deep})`;
  });
  // Export reads the stored state: repaired, not damaged.
  expect(await owner.documentMarkdown(documentId)).toBe("Deep words\n\nThe good paragraph.");
  const ownerPage = await openAs(browser, owner, documentId);
  await expect(ownerPage.page.getByTestId("document-editor")).toContainText("Deep words");
  await expect(ownerPage.page.getByTestId("document-editor")).toContainText("The good paragraph.");
  await expect(notice(ownerPage.page)).toHaveCount(0);
  expect(ownerPage.record.serverErrors).toEqual([]);
  // Repaired once: the repair is stored, and a second read finds nothing to repair.
  expect(await owner.documentMarkdown(documentId)).toBe("Deep words\n\nThe good paragraph.");
  expect(server?.log.match(/repaired stored content/g)?.length).toBe(1);
  // The state before the repair is kept as a version, once.
  const versions = await owner.trpc<Array<{ kind: string; label: string }>>(
    "versions.list",
    { documentId },
    "query",
  );
  expect(versions.filter((version) => version.kind === "repair-before")).toEqual([
    expect.objectContaining({ label: "Before repairing content stored before the content rule" }),
  ]);
  await ownerPage.close();
});
