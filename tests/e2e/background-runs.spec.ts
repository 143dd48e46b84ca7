import type { Browser } from "@playwright/test";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, type Page, test } from "../lib/test.ts";
import { ask, coEditorPage, cuttableSyncLink, paragraphs, waitForRunEnd } from "./helpers.ts";

/** The writer's new document "Kickoff notes.", open in Bob's copy (an editor) too. */
async function kickoffWithBob(browser: Browser, account: CoauthorClient, baseURL: string | undefined) {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Kickoff notes.");
  const bob = await coEditorPage(browser, account, documentId, baseURL);
  await expect(paragraphs(bob.page)).toHaveText(["Kickoff notes."]);
  return { documentId, bobContext: bob.context, bobPage: bob.page };
}

/** Undo run on the run History lists first: the writer's copy and Bob's are back to the kickoff. */
async function undoRunFromHistory(page: Page, bobPage: Page) {
  await page.getByTestId("history-undo-run").first().click();
  await expect(paragraphs(page)).toHaveText(["Kickoff notes."]);
  await expect(paragraphs(bobPage)).toHaveText(["Kickoff notes."]);
}

// Runs in the background (issue #39, point 2): the server executes every tool call of the run on
// the live document, so the writer may close the tab as soon as the run has started; co-editors
// see its edits arrive and the agent at work (its presence), and History has it.

test("Run in background: the writer closes the tab at once, the run goes on, a co-editor sees every edit, History shows it done and Undo run takes it back", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { documentId, bobContext, bobPage } = await kickoffWithBob(browser, account, baseURL);

  const writerContext = await browser.newContext({ storageState: await page.context().storageState() });
  const writerPage = await writerContext.newPage();
  await writerPage.goto(`${baseURL}/documents/${documentId}`);
  await expect(paragraphs(writerPage)).toHaveText(["Kickoff notes."]);
  await writerPage.getByTestId("assistant-mode-agent").click();
  await writerPage.getByTestId("assistant-input").fill("count to 4");
  const started = writerPage.waitForResponse(
    (response) => response.url().endsWith("/api/llm/agent") && response.request().method() === "POST",
  );
  await writerPage.getByTestId("assistant-send-background").click();
  expect((await started).status()).toBe(200);
  // The run has started: the writer leaves at once.
  await writerContext.close();

  // The server's agent is present for Bob as a tab's would be: the agent, and no person, for it.
  await expect(bobPage.getByTestId("presence-agent")).toHaveText("Coauthor · for Test writer");
  await expect(bobPage.getByTestId("presence-person")).toHaveCount(1);
  await expect(paragraphs(bobPage)).toHaveText(["Kickoff notes.", "1", "2", "3", "4"], { timeout: 20_000 });
  await page.goto(`/documents/${documentId}`);
  await page.getByTestId("assistant-history-toggle").click();
  await expect(page.getByTestId("run-history-item").first()).toContainText("count to 4");
  await expect(page.getByTestId("run-history-item").first()).toContainText("Done", { timeout: 15_000 });
  // The server recorded its calls as a tab records them: Undo run takes the run back, for Bob too.
  await undoRunFromHistory(page, bobPage);
  await bobContext.close();
});

// Point 1's handover: a tab that drops off mid-run (its socket, its result posts and its lease asks
// all held up, as on a train entering a tunnel) still runs the call it already holds the lease for;
// after the grace the server runs that call again on the live document and goes on. When the tab
// is back, its late copy of that call is undone on the server, and it may take the run back at a
// call boundary: every call's edit is in every copy once, in order.
test("a tab that goes offline mid-run hands over to the server and comes back: every call's edit lands once in every copy", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { documentId, bobContext, bobPage } = await kickoffWithBob(browser, account, baseURL);

  let offline = false;
  const link = await cuttableSyncLink(page);
  // The tab drops off once its second result is delivered: the third call is already on its way.
  let results = 0;
  await page.route("**/api/llm/agent/**", async (route) => {
    if (offline) return route.abort("internetdisconnected");
    const secondResult = route.request().url().endsWith("/callback") && ++results === 2;
    await route.continue();
    if (secondResult) {
      offline = true;
      link.cut();
    }
  });
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Kickoff notes."]);
  await ask(page, "agent", "count to 8");

  // The server takes over after the grace: Bob sees the run go on without the writer's tab.
  await expect(paragraphs(bobPage).nth(4)).toHaveText("4", { timeout: 40_000 });
  offline = false;
  link.restore();

  const counted = ["Kickoff notes.", "1", "2", "3", "4", "5", "6", "7", "8"];
  await expect(paragraphs(bobPage)).toHaveText(counted, { timeout: 40_000 });
  await expect(paragraphs(page)).toHaveText(counted, { timeout: 40_000 });
  await waitForRunEnd(page, "Done", 40_000);
  // Stored once too: a fresh copy reads the same.
  await bobPage.reload();
  await expect(paragraphs(bobPage)).toHaveText(counted);
  // The tab's and the server's recordings are one run: Undo run takes all of it back.
  await page.getByTestId("assistant-history-toggle").click();
  await undoRunFromHistory(page, bobPage);
  await bobContext.close();
});

// Point 1: a run started from a tab (not in the background) whose tab is closed mid-run. The
// server takes the run over after the grace: Bob sees the agent go on and finish, and the writer,
// back the next time, takes it all back with Undo run.
test("the writer closes the tab mid-run: the server goes on, Bob sees the agent and every edit, and Undo run takes it back later", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { documentId, bobContext, bobPage } = await kickoffWithBob(browser, account, baseURL);

  const writerContext = await browser.newContext({ storageState: await page.context().storageState() });
  const writerPage = await writerContext.newPage();
  let secondResult: () => void = () => undefined;
  const secondDelivered = new Promise<void>((resolve) => {
    secondResult = resolve;
  });
  let results = 0;
  await writerPage.route("**/api/llm/agent/callback", async (route) => {
    await route.continue();
    if (++results === 2) secondResult();
  });
  await writerPage.goto(`${baseURL}/documents/${documentId}`);
  await expect(paragraphs(writerPage)).toHaveText(["Kickoff notes."]);
  await ask(writerPage, "agent", "count to 6");
  await secondDelivered;
  await writerContext.close();

  // The server's agent is present for Bob, and the run goes on to its end.
  await expect(bobPage.getByTestId("presence-agent")).toHaveText("Coauthor · for Test writer", {
    timeout: 40_000,
  });
  const counted = ["Kickoff notes.", "1", "2", "3", "4", "5", "6"];
  await expect(paragraphs(bobPage)).toHaveText(counted, { timeout: 40_000 });
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(counted);
  await page.getByTestId("assistant-history-toggle").click();
  await expect(page.getByTestId("run-history-item").first()).toContainText("Done", { timeout: 15_000 });
  await undoRunFromHistory(page, bobPage);
  await bobContext.close();
});

// A run in the background in Suggest mode: the server proposes, it does not write; Bob sees the
// suggestion live, authored by the agent for the writer, and decides it.
test("Suggest mode in the background: the server's suggestions reach Bob live, authored by the agent for the writer", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  const { documentId, bobContext, bobPage } = await kickoffWithBob(browser, account, baseURL);

  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Kickoff notes."]);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await page.getByTestId("assistant-input").fill('append "Proposed line"');
  const started = page.waitForResponse(
    (response) => response.url().endsWith("/api/llm/agent") && response.request().method() === "POST",
  );
  await page.getByTestId("assistant-send-background").click();
  expect((await started).status()).toBe(200);
  await page.goto("about:blank");

  const proposed = bobPage.getByTestId("document-editor").locator('[data-suggestion="inserted"]');
  await expect(proposed).toHaveText(["Proposed line"], { timeout: 20_000 });
  const item = bobPage.getByTestId("suggestion-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Coauthor for Test writer");
  await item.getByRole("button", { name: "Accept", exact: true }).click();
  await expect(proposed).toHaveCount(0);
  await expect(paragraphs(bobPage)).toHaveText(["Kickoff notes.", "Proposed line"]);
  await expect.poll(() => account.documentMarkdown(documentId)).toBe("Kickoff notes.\n\nProposed line");
  await bobContext.close();
});
