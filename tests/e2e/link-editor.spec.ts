import { expect, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { createDocument } from "./helpers.ts";

test("the floating link editor adds, edits and removes a link from the keyboard", async ({ page }) => {
  await createDocument(page);
  const editor = page.getByTestId("document-editor");
  await expect(editor).toBeFocused();
  await page.keyboard.type("Read the guide");
  // The typing has landed before the selection is made (a late keystroke would move the caret).
  await expect(editor).toHaveText("Read the guide");
  for (let i = 0; i < "guide".length; i++) await page.keyboard.press("Shift+ArrowLeft");
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe("guide");

  // Ctrl+K opens the address input below the selection; a script address is refused.
  await page.keyboard.press("Control+k");
  const address = page.getByRole("textbox", { name: "Link address" });
  await expect(address).toBeFocused();
  await page.keyboard.type("javascript:alert(1)");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("link-editor").getByRole("alert")).toContainText("https://");
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(editor.locator("a")).toHaveCount(0);
  await expectNoAxeViolations(page, "link editor with an error");

  await page.keyboard.press("Control+a");
  await page.keyboard.type("https://example.com/guide");
  await page.keyboard.press("Enter");
  const link = editor.locator("a");
  await expect(link).toHaveAttribute("href", "https://example.com/guide");
  await expect(link).toHaveText("guide");
  await expect(editor).toBeFocused();
  // With the caret in the link, its address shows with Edit and Remove.
  const view = page.getByTestId("link-view");
  await expect(view.getByRole("link")).toHaveText("https://example.com/guide");
  await expect(view.getByRole("button", { name: "Remove" })).toBeVisible();

  // Ctrl+K again edits the link's address.
  await page.keyboard.press("Control+k");
  await expect(address).toBeFocused();
  await expect(address).toHaveValue("https://example.com/guide");
  await expectNoAxeViolations(page, "link editor editing a link");
  await page.keyboard.press("Control+a");
  await page.keyboard.type("mailto:guide@example.com");
  await page.keyboard.press("Enter");
  await expect(link).toHaveAttribute("href", "mailto:guide@example.com");
  await expect(editor).toBeFocused();

  // Esc closes the editor without change; then Ctrl+K, Tab to "Remove link", Enter removes it.
  await page.keyboard.press("Control+k");
  await expect(address).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(address).toHaveCount(0);
  await expect(editor).toBeFocused();
  await expect(link).toHaveAttribute("href", "mailto:guide@example.com");
  await page.keyboard.press("Control+k");
  await expect(address).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Remove link" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(editor.locator("a")).toHaveCount(0);
  await expect(editor).toHaveText("Read the guide");
  await expect(editor).toBeFocused();
});

test("Ctrl+K pressed before the editor has seen the new selection links what is highlighted", async ({
  page,
}) => {
  await createDocument(page);
  const editor = page.getByTestId("document-editor");
  await expect(editor).toBeFocused();
  await page.keyboard.type("Read the guide");
  await expect(editor).toHaveText("Read the guide");
  // The caret sits at the end, collapsed. In one task, the browser's selection moves to "guide"
  // and Ctrl+K arrives: the browser's selectionchange (which the editor follows) fires only after.
  const highlighted = await page.evaluate(() => {
    const root = document.querySelector('[data-testid="document-editor"]');
    const walker = document.createTreeWalker(root ?? document.body, NodeFilter.SHOW_TEXT);
    const text = walker.nextNode();
    if (!root || !text?.textContent) throw new Error("no text in the editor");
    const start = text.textContent.indexOf("guide");
    window.getSelection()?.setBaseAndExtent(text, start, text, start + "guide".length);
    root.dispatchEvent(
      new KeyboardEvent("keydown", { key: "k", ctrlKey: true, bubbles: true, cancelable: true }),
    );
    return window.getSelection()?.toString();
  });
  expect(highlighted).toBe("guide");
  const address = page.getByRole("textbox", { name: "Link address" });
  await expect(address).toBeFocused();
  await page.keyboard.type("https://example.com/guide");
  await page.keyboard.press("Enter");
  await expect(editor.locator("a")).toHaveText("guide");
  await expect(editor.locator("a")).toHaveAttribute("href", "https://example.com/guide");
  await expect(editor).toHaveText("Read the guide");
});
