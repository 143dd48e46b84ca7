import type { Browser, BrowserContext } from "@playwright/test";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, type Page, test } from "../lib/test.ts";
import {
  ask,
  blockIds,
  blocks,
  contextFor,
  paragraphs,
  pressUntil,
  waitForRunEnd,
  waitForSave,
} from "./helpers.ts";

// Several people in one document: every copy sees every edit live, nothing typed is lost, the
// agent's edits reach everyone, and undo is each writer's own.

/** Opens the document in `page` and waits for its first sync (clients never seed: content means synced). */
async function open(page: Page, documentId: string): Promise<void> {
  await page.goto(`/documents/${documentId}`);
  await expect(blocks(page).first()).toBeVisible({ timeout: 15_000 });
  if ((await page.getByTestId("role-badge").count()) === 0) {
    await expect(page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "true");
  }
}

/** A second writer with editor rights on `documentId`, in a browser of their own. */
async function coEditor(
  browser: Browser,
  owner: CoauthorClient,
  documentId: string,
  baseURL: string,
  role: "editor" | "viewer" = "editor",
): Promise<{ client: CoauthorClient; page: Page; context: BrowserContext }> {
  const client = await new CoauthorClient(baseURL).signIn();
  await owner.trpc("documents.share", { id: documentId, email: client.email, role });
  const context = await contextFor(browser, client, baseURL);
  const page = await context.newPage();
  await open(page, documentId);
  return { client, page, context };
}

/** Alice (`page`, signed in as `owner`) opens a new document holding `markdown`; a co-editor of `role` opens it too. */
async function shareAndOpen(
  {
    page,
    owner,
    browser,
    baseURL,
  }: { page: Page; owner: CoauthorClient; browser: Browser; baseURL?: string },
  markdown: string,
  role: "editor" | "viewer" = "editor",
) {
  if (!baseURL) throw new Error("no baseURL");
  const id = await owner.createDocument(markdown);
  await open(page, id);
  const other = await coEditor(browser, owner, id, baseURL, role);
  return { id, other };
}

/**
 * Waits until the browser's offline copy holds everything typed so far: the editor's own state
 * has `text` (the browser shows typed text a moment before), and a write transaction on the
 * copy's IndexedDB store completes — IndexedDB runs write transactions on one store in order, so
 * every update stored before it is on disk.
 */
async function offlineCopyStored(page: Page, database: string, text: string): Promise<void> {
  await expect
    .poll(() =>
      page.getByTestId("document-editor").evaluate((root) => {
        interface Serialized {
          text?: string;
          children?: Serialized[];
        }
        interface LexicalRoot {
          __lexicalEditor?: { getEditorState(): { toJSON(): { root: Serialized } } };
        }
        const textOf = (node: Serialized): string =>
          (node.text ?? "") + (node.children ?? []).map(textOf).join("");
        const editor = (root as unknown as LexicalRoot).__lexicalEditor;
        return editor ? textOf(editor.getEditorState().toJSON().root) : "";
      }),
    )
    .toContain(text);
  await page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const opened = indexedDB.open(name);
        opened.onerror = () => reject(opened.error);
        opened.onsuccess = () => {
          const db = opened.result;
          const transaction = db.transaction("updates", "readwrite");
          transaction.oncomplete = () => {
            db.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    database,
  );
}

async function placeCaret(page: Page, blockIndex: number, where: "Home" | "End"): Promise<void> {
  await blocks(page).nth(blockIndex).click();
  await page.keyboard.press(where);
}

async function typeAtEndOf(page: Page, blockIndex: number, text: string): Promise<void> {
  await placeCaret(page, blockIndex, "End");
  await page.keyboard.type(text);
}

/** Both writers put their caret, then type at the same time. */
async function typeTogether(
  a: { page: Page; block: number; where: "Home" | "End"; text: string },
  b: { page: Page; block: number; where: "Home" | "End"; text: string },
): Promise<void> {
  await placeCaret(a.page, a.block, a.where);
  await placeCaret(b.page, b.block, b.where);
  await Promise.all([a.page.keyboard.type(a.text), b.page.keyboard.type(b.text)]);
}

test("two writers typing at once, in one paragraph and in two, end with the same text and lose nothing", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { other: bob } = await shareAndOpen(
    { page, owner: account, browser, baseURL },
    "Shared start.\n\nSecond paragraph.",
  );

  // The same paragraph at the same time (one at its start, one at its end), then two paragraphs.
  await typeTogether(
    { page, block: 0, where: "Home", text: "Alice was here. " },
    { page: bob.page, block: 0, where: "End", text: " Bob too." },
  );
  await typeTogether(
    { page, block: 1, where: "End", text: " A2." },
    { page: bob.page, block: 0, where: "End", text: " B2." },
  );
  await Promise.all([waitForSave(page), waitForSave(bob.page)]);

  for (const copy of [page, bob.page]) {
    await expect(blocks(copy).first()).toHaveText("Alice was here. Shared start. Bob too. B2.");
    await expect(blocks(copy).nth(1)).toHaveText("Second paragraph. A2.");
  }
  await expect.poll(() => blocks(bob.page).allTextContents()).toEqual(await blocks(page).allTextContents());
  expect(await blockIds(bob.page)).toEqual(await blockIds(page));
  const converged = await blocks(page).allTextContents();

  await Promise.all([page.reload(), bob.page.reload()]);
  await expect(blocks(page)).toHaveText(converged);
  await expect(blocks(bob.page)).toHaveText(converged);
  await bob.context.close();
});

test("two people opening a brand-new document at once get exactly one empty paragraph, with one block id", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const id = await account.createDocument();
  const client = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id, email: client.email, role: "editor" });
  const context = await contextFor(browser, client, baseURL);
  const other = await context.newPage();
  await Promise.all([open(page, id), open(other, id)]);
  await expect(blocks(page)).toHaveCount(1);
  await expect(blocks(other)).toHaveCount(1);
  const ids = await blockIds(page);
  expect(ids).toHaveLength(1);
  expect(await blockIds(other)).toEqual(ids);
  await context.close();
});

test("an agent run in A's copy lands live in B's; B types meanwhile and keeps every word through the run, Undo run and a reload", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { other: bob } = await shareAndOpen(
    { page, owner: account, browser, baseURL },
    "Alice's opening.\n\nBob's notes.",
  );

  await expect(bob.page.getByTestId("presence-person")).toHaveCount(2);
  await ask(page, "agent", "count to 6");
  // The run is still going while its numbers reach Bob, highlighted there too, and Bob sees the agent.
  await expect(bob.page.getByTestId("presence-agent")).toHaveText("Coauthor · for Test writer", {
    timeout: 15_000,
  });
  await expect(paragraphs(bob.page).filter({ hasText: /^2$/ })).toHaveCount(1, { timeout: 15_000 });
  await expect(paragraphs(bob.page).filter({ hasText: /^4$/ })).toHaveAttribute(
    "data-agent-highlight",
    "true",
    {
      timeout: 15_000,
    },
  );
  await expect(page.getByTestId("assistant-stop")).toBeVisible();
  await typeAtEndOf(bob.page, 1, " Typed by Bob during the run.");
  await waitForRunEnd(page);
  await expect(paragraphs(bob.page).filter({ hasText: /^6$/ })).toHaveCount(1);
  await expect(bob.page.getByTestId("presence-agent")).toHaveCount(0);

  // Bob's Ctrl+Z takes back Bob's typing only, never the agent's paragraphs; redo puts it back.
  const bobsBlock = blocks(bob.page).nth(1);
  await pressUntil(bob.page, "Control+z", bobsBlock, "Bob's notes.");
  await expect(paragraphs(bob.page).filter({ hasText: /^6$/ })).toHaveCount(1);
  await pressUntil(bob.page, "Control+Shift+z", bobsBlock, "Bob's notes. Typed by Bob during the run.");

  await page.getByTestId("assistant-undo-run").click();
  const expected = ["Alice's opening.", "Bob's notes. Typed by Bob during the run."];
  await expect(blocks(page)).toHaveText(expected);
  await expect(blocks(bob.page)).toHaveText(expected);
  await Promise.all([waitForSave(page), waitForSave(bob.page)]);
  await bob.page.reload();
  await expect(blocks(bob.page)).toHaveText(expected);
  await bob.context.close();
});

test("a viewer sees every edit live but cannot type", async ({ page, account, browser, baseURL }) => {
  const { other: viewer } = await shareAndOpen(
    { page, owner: account, browser, baseURL },
    "Read me.",
    "viewer",
  );
  await expect(viewer.page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "false");
  await typeAtEndOf(page, 0, " Live.");
  await expect(blocks(viewer.page).first()).toHaveText("Read me. Live.");
  await viewer.context.close();
});

test("Undo run reverts the whole run after a reload in the middle of it, and again from History in a new browser the next day", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const id = await account.createDocument("Before the run.");
  await open(page, id);

  // A reload while the run is going: the reattached page finishes it; Undo run takes back all of it.
  await ask(page, "agent", "count to 6");
  await expect(paragraphs(page).filter({ hasText: /^2$/ })).toHaveCount(1, { timeout: 15_000 });
  await page.reload();
  await waitForRunEnd(page);
  await expect(blocks(page)).toHaveText(["Before the run.", "1", "2", "3", "4", "5", "6"]);
  await page.getByTestId("assistant-undo-run").click();
  await expect(blocks(page)).toHaveText(["Before the run."]);
  await expect(page.getByTestId("assistant-undo-report")).toContainText("6 edits taken back");

  // Another run, then the tab goes away; the next day, in a new browser, History undoes it.
  await ask(page, "agent", "count to 3");
  await waitForRunEnd(page);
  await waitForSave(page);
  await page.close();
  const nextDay = await contextFor(browser, account, baseURL);
  const later = await nextDay.newPage();
  await open(later, id);
  // A co-editor's change to one of the run's paragraphs since then stays.
  await typeAtEndOf(later, 2, " (kept)");
  await later.getByTestId("assistant-history-toggle").click();
  await later.getByTestId("history-undo-run").first().click();
  await expect(blocks(later)).toHaveText(["Before the run.", "2 (kept)"]);
  await expect(later.getByTestId("assistant-undo-report")).toContainText(
    "1 block kept because someone changed it",
  );
  await nextDay.close();
});

test("a writer who drops offline keeps typing; the indicator says so, and everything merges on reconnect — also after closing the tab", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { id, other: bob } = await shareAndOpen(
    { page, owner: account, browser, baseURL },
    "Alpha.\n\nBeta.",
  );

  await bob.context.setOffline(true);
  await expect(bob.page.getByTestId("save-status")).toHaveText("Offline — your changes are kept", {
    timeout: 15_000,
  });
  await typeAtEndOf(bob.page, 1, " Bob offline.");
  await typeAtEndOf(page, 0, " Alice online.");
  await expect(blocks(page).nth(1)).toHaveText("Beta.");
  await bob.context.setOffline(false);
  const merged = ["Alpha. Alice online.", "Beta. Bob offline."];
  await expect(blocks(page)).toHaveText(merged, { timeout: 15_000 });
  await expect(blocks(bob.page)).toHaveText(merged);
  await expect(bob.page.getByTestId("save-status")).toHaveText("Saved");

  // Offline again, typing, then the tab closes: the words wait in this browser and land next time.
  await bob.context.setOffline(true);
  await expect(bob.page.getByTestId("save-status")).toHaveText("Offline — your changes are kept", {
    timeout: 15_000,
  });
  await typeAtEndOf(bob.page, 0, " Kept in the browser.");
  await expect(blocks(bob.page).first()).toHaveText("Alpha. Alice online. Kept in the browser.");
  await offlineCopyStored(
    bob.page,
    `coauthor:${bob.client.userId}:${id}`,
    "Alpha. Alice online. Kept in the browser.",
  );
  // Closing now asks first: the server does not have these words yet. The writer leaves anyway.
  const asked = bob.page.waitForEvent("dialog");
  await bob.page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.accept();
  await expect.poll(() => bob.page.isClosed()).toBe(true);
  await bob.context.setOffline(false);
  const again = await bob.context.newPage();
  await open(again, id);
  const final = ["Alpha. Alice online. Kept in the browser.", "Beta. Bob offline."];
  await expect(blocks(again)).toHaveText(final, { timeout: 15_000 });
  await expect(blocks(page)).toHaveText(final);
  await bob.context.close();
});

test("one writer, two tabs: exactly one tab runs the run's tool calls, and the other takes over when it closes", async ({
  page,
  context,
  account,
}) => {
  const id = await account.createDocument("Start.");
  await open(page, id);
  await ask(page, "agent", "count to 6");
  await expect(paragraphs(page).filter({ hasText: /^1$/ })).toHaveCount(1, { timeout: 15_000 });

  // A second tab of the same writer reattaches to the run and follows it. The first tab's next
  // tool result is held back meanwhile, so the run is still going however long the tab takes to open.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/llm/agent/callback", async (route) => {
    await held;
    await route.continue();
  });
  const second = await context.newPage();
  await open(second, id);
  await expect(second.getByTestId("assistant-stop")).toBeVisible();
  release();
  await expect(paragraphs(second).filter({ hasText: /^3$/ })).toHaveCount(1, { timeout: 15_000 });

  // The first tab goes away mid-run: the second takes the run's remaining calls over.
  await page.close();
  await waitForRunEnd(second);
  await expect(blocks(second)).toHaveText(["Start.", "1", "2", "3", "4", "5", "6"]);
  expect(await account.documentMarkdown(id)).toBe("Start.\n\n1\n\n2\n\n3\n\n4\n\n5\n\n6");
});

test("two co-editors' runs at the same time both land, and each Undo run takes back only its own run", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { other: bob } = await shareAndOpen({ page, owner: account, browser, baseURL }, "Shared.");

  await Promise.all([
    ask(page, "agent", "count to 3"),
    ask(bob.page, "agent", 'add a heading "Bob\'s heading"'),
  ]);
  await Promise.all([waitForRunEnd(page), waitForRunEnd(bob.page)]);
  for (const copy of [page, bob.page]) {
    await expect(paragraphs(copy).filter({ hasText: /^[123]$/ })).toHaveCount(3);
    await expect(copy.getByTestId("document-editor").locator("h2")).toHaveText("Bob's heading");
  }

  await page.getByTestId("assistant-undo-run").click();
  for (const copy of [page, bob.page]) {
    await expect(paragraphs(copy).filter({ hasText: /^[123]$/ })).toHaveCount(0);
    await expect(copy.getByTestId("document-editor").locator("h2")).toHaveText("Bob's heading");
  }
  await bob.page.getByTestId("assistant-undo-run").click();
  await expect(blocks(page)).toHaveText(["Shared."]);
  await expect(blocks(bob.page)).toHaveText(["Shared."]);
  await bob.context.close();
});

test("a co-editor removed while the document is open is cut off at once and told so", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { id, other: bob } = await shareAndOpen({ page, owner: account, browser, baseURL }, "Private now.");
  await account.trpc("documents.removeMember", { id, userId: bob.client.userId });
  await expect(bob.page.getByTestId("save-status")).toContainText("no longer have access", {
    timeout: 5_000,
  });
  await typeAtEndOf(bob.page, 0, " Too late.");
  await typeAtEndOf(page, 0, " Still Alice's.");
  await expect(blocks(page)).toHaveText(["Private now. Still Alice's."]);
  // The server's copy gets Alice's last keystrokes over her socket a moment after her page shows them.
  await expect.poll(() => account.documentMarkdown(id)).toBe("Private now. Still Alice's.");
  await bob.context.close();
});

test("where A's agent removes blocks, B's copy shows the trace too, and flashes no neighbour", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { other: bob } = await shareAndOpen(
    { page, owner: account, browser, baseURL },
    "Keep me.\n\ndrop one\n\ndrop two\n\nAlso keep.",
  );
  await ask(page, "agent", 'delete paragraphs containing "drop"');
  await expect(bob.page.getByTestId("agent-removal-trace")).toHaveText("2 paragraphs removed", {
    timeout: 15_000,
  });
  await expect(blocks(bob.page)).toHaveText(["Keep me.", "Also keep."]);
  await expect(bob.page.locator("[data-agent-highlight]")).toHaveCount(0);
  await waitForRunEnd(page);
  await bob.context.close();
});
