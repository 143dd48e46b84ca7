import { expect, test } from "../lib/test.ts";
import { createDocument, waitForSave } from "./helpers.ts";

/** Pastes `text` into the focused editor as a clipboard would, with the given types. */
async function paste(page: import("@playwright/test").Page, data: Record<string, string>) {
  await page.getByTestId("document-editor").evaluate((editor, entries) => {
    const transfer = new DataTransfer();
    for (const [type, value] of Object.entries(entries)) transfer.setData(type, value);
    editor.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, data);
}

test("pasting Markdown source inserts what it means; prose and HTML pastes are left to the editor", async ({
  page,
}) => {
  await createDocument(page);
  const editor = page.getByTestId("document-editor");
  await editor.click();
  await paste(page, {
    "text/plain":
      "# Release notes\n\n- **Faster** export\n- [Docs](https://example.com/docs)\n\n```ts\nconst a = 1;\n```",
  });
  await expect(editor.locator("h1")).toHaveText("Release notes");
  await expect(editor.locator("li")).toHaveCount(2);
  await expect(editor.locator("li strong").first()).toHaveText("Faster");
  await expect(editor.locator('a[href="https://example.com/docs"]')).toHaveText("Docs");
  await expect(editor.locator("code, pre").filter({ hasText: "const a = 1;" }).first()).toBeVisible();
  // No literal syntax is left behind.
  await expect(editor).not.toContainText("# Release");
  await expect(editor).not.toContainText("**");

  // Prose is pasted as it is: its line breaks and dashes are the writer's, not Markdown.
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await paste(page, { "text/plain": "Dear Sam, see you at 3 - or later." });
  await expect(editor).toContainText("Dear Sam, see you at 3 - or later.");
  // A paste that carries HTML is the editor's: its HTML wins over the Markdown-looking plain text.
  await page.keyboard.press("Enter");
  await paste(page, { "text/html": "<p><b>From HTML</b> here</p>", "text/plain": "# From plain text" });
  await expect(editor).toContainText("From HTML here");
  await expect(editor).not.toContainText("From plain text");
  await expect(editor.locator("h1")).toHaveCount(1);
  await waitForSave(page);
  await page.reload();
  await expect(page.getByTestId("document-editor").locator("h1")).toHaveText("Release notes");
  await expect(page.getByTestId("document-editor").locator("li")).toHaveCount(2);
});
