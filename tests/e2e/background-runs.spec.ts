import { expect, test } from "../lib/test.ts";
import { coEditorPage, paragraphs } from "./helpers.ts";

// Runs in the background (issue #39, point 2): the server executes every tool call of the run on
// the live document, so the writer may close the tab as soon as the run has started; co-editors
// see its edits arrive and the agent at work (its presence), and History has it.

test("Run in background: the writer closes the tab at once, the run goes on, a co-editor sees every edit, History shows it done and Undo run takes it back", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Kickoff notes.");
  const { context: bobContext, page: bobPage } = await coEditorPage(browser, account, documentId, baseURL);
  await expect(paragraphs(bobPage)).toHaveText(["Kickoff notes."]);

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
  await page.getByTestId("history-undo-run").first().click();
  await expect(paragraphs(page)).toHaveText(["Kickoff notes."]);
  await expect(paragraphs(bobPage)).toHaveText(["Kickoff notes."]);
  await bobContext.close();
});
