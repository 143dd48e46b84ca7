import { freshCredentials } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";
import { announcements, recordAnnouncements, tabTo } from "./accessibility-helpers.ts";
import { ask, createDocument, paragraphs, typeParagraphs, waitForRunEnd } from "./helpers.ts";

test.describe("keyboard only", () => {
  test.use({ signedIn: false });

  test("a writer signs up, writes, runs the agent, stops and undoes it, and opens History without a mouse", async ({
    page,
  }) => {
    const account = freshCredentials("keyboard");
    await page.goto("/sign-up");
    await tabTo(page, page.getByLabel("Name", { exact: true }));
    await page.keyboard.type(account.name);
    await page.keyboard.press("Tab");
    await page.keyboard.type(account.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(account.password);
    await page.keyboard.press("Enter");

    const newDocument = page.getByTestId("new-document");
    await expect(newDocument).toBeVisible();
    await tabTo(page, newDocument);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/documents\/[^/]+$/);
    // Focus goes to the document, ready to type.
    const editor = page.getByTestId("document-editor");
    await expect(editor).toHaveAttribute("contenteditable", "true", { timeout: 15_000 });
    await expect(editor).toBeFocused();
    await page.keyboard.type("Typed without a mouse.");
    await expect(paragraphs(page)).toHaveText(["Typed without a mouse."]);

    // Tab leaves the editor (no tab character, no indent) for the assistant.
    await page.keyboard.press("Tab");
    await expect(editor).not.toBeFocused();
    await expect(paragraphs(page)).toHaveText(["Typed without a mouse."]);
    const panel = page.getByTestId("assistant-panel");
    expect(await panel.evaluate((element) => element.contains(document.activeElement))).toBe(true);

    const prompt = page.getByTestId("assistant-input");
    await tabTo(page, prompt);
    await page.keyboard.type("count to 30");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("assistant-tool-call").nth(1)).toHaveAttribute("data-status", "ok");
    // Esc in the panel stops the run; focus stays in the prompt box.
    await page.keyboard.press("Escape");
    await waitForRunEnd(page, "Stopped");
    await expect(prompt).toBeFocused();

    const undo = page.getByTestId("assistant-undo-run");
    await expect(undo).toBeVisible();
    await tabTo(page, undo, { backwards: true });
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("assistant-undo-report")).toBeVisible();
    await expect(paragraphs(page)).toHaveText(["Typed without a mouse."]);
    await expect(prompt).toBeFocused();

    const history = page.getByTestId("assistant-history-toggle");
    await tabTo(page, history, { backwards: true });
    await page.keyboard.press("Enter");
    const run = page.getByTestId("run-history-item");
    await expect(run).toHaveCount(1);
    await expect(run).toContainText("count to 30");
    await tabTo(page, run.getByRole("button", { expanded: false }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("run-log-line").last()).toHaveAttribute("data-type", "finish");

    // `?` (focus on a button, not in a text field) lists the shortcuts; Esc closes the list.
    await page.keyboard.press("?");
    const shortcuts = page.getByTestId("shortcuts-dialog");
    await expect(shortcuts).toBeVisible();
    await expect(shortcuts).toContainText("Alt+Shift+A");
    await page.keyboard.press("Escape");
    await expect(shortcuts).toBeHidden();
  });
});

test("Esc in the editor never stops a run", async ({ page }) => {
  await createDocument(page);
  await typeParagraphs(page, ["Start."]);
  // One long streamed answer: a run that is still going whenever Esc is pressed.
  await ask(page, "agent", "write 300 words");
  const answer = page.getByTestId("assistant-messages").locator(".message-assistant");
  await expect(answer).toContainText("w10");
  await page.getByTestId("document-editor").click();
  await page.keyboard.press("Escape");
  const words = (await answer.textContent())?.split(" ").length ?? 0;
  // The run goes on: more words stream in after Esc.
  await expect(answer).toContainText(`w${words + 20}`);
  await expect(page.getByTestId("assistant-status")).toHaveText("Assistant is editing…");
  await page.getByTestId("assistant-stop").click();
  await waitForRunEnd(page, "Stopped");
});

test("Tab indents a list item wherever the caret is, Shift+Tab outdents it; Enter in the title goes to the document", async ({
  page,
}) => {
  await createDocument(page);
  const editor = page.getByTestId("document-editor");
  await editor.click();
  await page.keyboard.type("- first");
  await page.keyboard.press("Enter");
  await page.keyboard.type("second");
  await expect(editor.locator("li")).toHaveText(["first", "second"]);
  await page.keyboard.press("Tab");
  await expect(editor).toBeFocused();
  await expect(editor.locator("ul ul li")).toHaveText("second");
  await page.keyboard.press("Shift+Tab");
  await expect(editor).toBeFocused();
  await expect(editor.locator("ul ul")).toHaveCount(0);
  await expect(editor.locator("li")).toHaveText(["first", "second"]);

  const title = page.getByTestId("document-title");
  await title.fill("Keyboard notes");
  await title.press("Enter");
  await expect(editor).toBeFocused();
  await expect(page).toHaveTitle("Keyboard notes — Coauthor");
});

test("the live region announces each finished message and tool step, never each streamed token", async ({
  page,
}) => {
  await createDocument(page);
  await typeParagraphs(page, ["Start."]);
  await recordAnnouncements(page);
  const messages = page.getByTestId("assistant-messages");
  // Counts the conversation's changes as the answer streams, to show it streamed many tokens.
  await messages.evaluate((element) => {
    const changes = { count: 0 };
    (window as unknown as { conversationChanges: { count: number } }).conversationChanges = changes;
    new MutationObserver((records) => {
      changes.count += records.length;
    }).observe(element, { childList: true, subtree: true, characterData: true });
  });

  await ask(page, "agent", "write 80 words");
  await waitForRunEnd(page);
  await expect(messages.locator(".message-assistant").last()).toContainText("w80");
  const streamed = await page.evaluate(
    () => (window as unknown as { conversationChanges: { count: number } }).conversationChanges.count,
  );
  expect(streamed).toBeGreaterThan(20);
  // The run's end is announced from an effect after the status shows it: read once it is there.
  await expect.poll(async () => (await announcements(page)).at(-1)).toBe("Run ended: Done");
  const afterAnswer = await announcements(page);
  // One message, no tool call: the answer once and the run's end, against 20+ streamed changes.
  expect(afterAnswer.length).toBeLessThan(0 + 1 + 2);
  expect(afterAnswer).toEqual([expect.stringContaining("w1 w2"), "Run ended: Done"]);

  await ask(page, "agent", "count to 3");
  await waitForRunEnd(page);
  await expect
    .poll(async () => (await announcements(page)).slice(afterAnswer.length).at(-1))
    .toBe("Run ended: Done");
  const all = await announcements(page);
  const forCount = all.slice(afterAnswer.length);
  const toolCalls = 3;
  const finishedMessages = 4;
  expect(forCount.length).toBeLessThan(toolCalls + finishedMessages + 2);
  expect(forCount.filter((line) => line === "Added 1 paragraph at the end")).toHaveLength(toolCalls);
  expect(forCount.at(-1)).toBe("Run ended: Done");
});
