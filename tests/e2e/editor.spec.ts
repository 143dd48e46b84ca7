import { expect, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs, waitForSave } from "./helpers.ts";

test("a writer creates a document, types in it, and finds it again after a reload", async ({ page }) => {
  const url = await createDocument(page);
  const editor = page.getByTestId("document-editor");
  await editor.click();
  await page.keyboard.type("My first line.");
  await waitForSave(page);
  await page.reload();
  await expect(page.getByTestId("document-editor")).toContainText("My first line.");
  await page.goto("/");
  await expect(page.getByTestId("document-row").first()).toBeVisible();
  await page.goto(url);
  await expect(page.getByTestId("document-editor")).toContainText("My first line.");
});

test("agent append: the paragraph lands while the run streams, and survives a reload", async ({ page }) => {
  await createDocument(page);
  await page.getByTestId("document-editor").click();
  await page.keyboard.type("Opening line.");
  await waitForSave(page);

  // Note the run's status at the moment the paragraph first shows up in the editor.
  await page.evaluate(() => {
    const editor = document.querySelector('[data-testid="document-editor"]');
    const record = window as unknown as { statusWhenLanded?: string };
    const observer = new MutationObserver(() => {
      if (!editor?.textContent?.includes("Written by the agent")) return;
      record.statusWhenLanded = document.querySelector('[data-testid="assistant-status"]')?.textContent ?? "";
      observer.disconnect();
    });
    if (editor) observer.observe(editor, { childList: true, subtree: true, characterData: true });
  });
  await ask(page, "agent", 'append "Written by the agent"');
  const status = page.getByTestId("assistant-status");
  await expect(status).toHaveText("Done", { timeout: 15_000 });
  // The edit landed while the run was still going (its closing words were still streaming).
  const landed = await page.evaluate(
    () => (window as unknown as { statusWhenLanded?: string }).statusWhenLanded,
  );
  expect(landed).toBe("Assistant is editing…");
  await expect(paragraphs(page).filter({ hasText: "Written by the agent" })).toHaveCount(1);
  await expect(page.getByTestId("assistant-tool-call")).toHaveCount(1);
  await expect(page.getByTestId("assistant-messages")).toContainText("the paragraph is at the end");

  await waitForSave(page);
  await page.reload();
  await expect(paragraphs(page)).toHaveText(["Opening line.", "Written by the agent"]);
});

test("Stop ends a long run as cancelled; nothing arrives afterwards and the editor stays usable", async ({
  page,
}) => {
  await createDocument(page);
  await ask(page, "agent", "count to 30");
  const status = page.getByTestId("assistant-status");
  await expect(paragraphs(page).filter({ hasText: /^3$/ })).toHaveCount(1, { timeout: 15_000 });
  await page.getByTestId("assistant-stop").click();
  await expect(status).toHaveText("Stopped", { timeout: 1_000 });
  const count = await paragraphs(page).count();
  expect(count).toBeLessThan(30);
  await page.waitForTimeout(1_500);
  expect(await paragraphs(page).count()).toBe(count);
  await expect(page.getByTestId("assistant-stop")).toBeHidden();

  const editor = page.getByTestId("document-editor");
  await expect(editor).toHaveAttribute("contenteditable", "true");
  // The caret goes to the end of the last paragraph, and the editor has the focus to type there.
  await paragraphs(page).last().click();
  await expect(editor).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Still mine.");
  await expect(paragraphs(page).last()).toHaveText("Still mine.");
});

test("chat mode answers about the document and changes nothing", async ({ page }) => {
  await createDocument(page);
  await page.getByTestId("document-editor").click();
  await page.keyboard.type("Alpha beta gamma.");
  await waitForSave(page);
  const before = await page.getByTestId("document-editor").innerHTML();

  await ask(page, "chat", "How long is this?");
  await expect(page.getByTestId("assistant-status")).toHaveText("Done", { timeout: 15_000 });
  await expect(page.getByTestId("assistant-messages")).toContainText(
    "The document has 3 words. No headings.",
  );
  expect(await page.getByTestId("document-editor").innerHTML()).toBe(before);
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
});
