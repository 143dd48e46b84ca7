import type { Page } from "@playwright/test";
import { $createParagraphNode, $createTextNode, $getRoot } from "lexical";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";
import { paragraphs, waitForRunEnd, waitForSave } from "./helpers.ts";

/**
 * Holds back what the sync server sends this page until `release` is called: the page's first
 * sync (and every later update) arrives only then, as on a slow link — the moment a writer's
 * typing and the document's arrival race.
 */
async function holdServerMessages(page: Page): Promise<() => void> {
  let held: Array<() => void> | null = [];
  await page.routeWebSocket(/\/collab/, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (held === null) socket.send(message);
      else held.push(() => socket.send(message));
    });
  });
  return () => {
    const queued = held ?? [];
    held = null;
    for (const send of queued) send();
  };
}

// What a writer does without pausing: no wait for the editor to become editable, for "Saved", or
// for anything else between typing and the next action. Each of these lost words on an earlier main.

/**
 * Creates a document from the home page with the server's messages held back, and clicks into its
 * editor at once; returns the release of the held messages.
 */
async function openNewDocumentHeld(page: Page): Promise<() => void> {
  const release = await holdServerMessages(page);
  await page.goto("/");
  await page.getByTestId("new-document").click();
  await page.waitForURL(/\/documents\/[^/]+$/);
  await page.getByTestId("document-editor").click();
  return release;
}

test("the first words typed into a new document are kept, typed before the document arrives", async ({
  page,
}) => {
  const release = await openNewDocumentHeld(page);
  await page.keyboard.type("Quarterly report draft");
  release();
  await expect(paragraphs(page)).toHaveText(["Quarterly report draft"]);
  await waitForSave(page);
  await page.reload();
  await expect(paragraphs(page)).toHaveText(["Quarterly report draft"]);
});

// The agent's first tool call waits for the page's first sync; what the writer typed before it
// must be in the document the tool reads, or writing into "an empty document" replaces their words.
test("a sentence typed just before asking the agent, before the document arrived, stays beside the agent's paragraph", async ({
  page,
}) => {
  const release = await openNewDocumentHeld(page);
  await page.keyboard.type("Hello draft world");
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("assistant-input").fill('append "From the agent"');
  await page.getByTestId("assistant-send").click();
  release();
  await waitForRunEnd(page);
  await expect(paragraphs(page)).toHaveText(["Hello draft world", "From the agent"]);
  await waitForSave(page);
  await page.reload();
  await expect(paragraphs(page)).toHaveText(["Hello draft world", "From the agent"]);
});

// The browser tells Lexical where the caret went only in a later `selectionchange` event; a
// co-editor's edit applied before that event used to put the caret back where Lexical last saw it,
// so the next words landed there. The event is held back here until the co-editor's edit is in.
test("a caret moved just before a co-editor's edit arrives stays where the writer put it", async ({
  page,
  account,
}) => {
  const documentId = await account.createDocument("First.\n\nSecond.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["First.", "Second."]);
  await paragraphs(page).nth(1).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Typed.");
  await expect(paragraphs(page).nth(1)).toHaveText("Second. Typed.");

  // Lexical listens on the document; a listener that runs before it keeps the event from it.
  await page.evaluate(() => {
    const holder = window as Window & { holdSelectionChange?: boolean };
    holder.holdSelectionChange = true;
    window.addEventListener(
      "selectionchange",
      (event) => {
        if (holder.holdSelectionChange) event.stopImmediatePropagation();
      },
      { capture: true },
    );
  });
  await page.keyboard.press("Control+Home");

  const coEditor = new SyncClient({ baseURL: account.baseURL, cookie: account.cookie, documentId });
  try {
    await coEditor.synced();
    coEditor.bound.editor.update(
      () => {
        $getRoot().append($createParagraphNode().append($createTextNode("From a co-editor.")));
      },
      { discrete: true },
    );
    await coEditor.flushed();
  } finally {
    coEditor.close();
  }
  await expect(paragraphs(page)).toHaveText(["First.", "Second. Typed.", "From a co-editor."]);
  await page.evaluate(() => {
    (window as Window & { holdSelectionChange?: boolean }).holdSelectionChange = false;
  });
  await page.keyboard.type("Start: ");
  await expect(paragraphs(page)).toHaveText(["Start: First.", "Second. Typed.", "From a co-editor."]);
});
