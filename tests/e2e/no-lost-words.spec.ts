import type { Page } from "@playwright/test";
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
