import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { cuttableSyncLink } from "./helpers.ts";

// Export Markdown in the document header: a document without pending suggestions downloads at
// once; with pending suggestions the writer chooses how to write them (accepted by default,
// rejected, or in CriticMarkup), and a CriticMarkup file imported again holds the same suggestions.

const CRITIC = "# Plan\n\nThe {~~quick~>slow~~}{>>Calmer.<<} fox.\n\n{++A new line.++}";

/** Clicks `trigger` and returns the text of the file the browser downloads, and its name. */
async function downloaded(page: Page, trigger: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), trigger()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, "utf8") };
}

test("Export Markdown offers the views of pending suggestions, accepted by default, and downloads each", async ({
  page,
  account,
}) => {
  const { id } = await account.trpc<{ id: string }>("documents.create", {
    title: "Reviewed plan",
    markdown: CRITIC,
    format: "criticmarkup",
  });
  await page.goto(`/documents/${id}`);
  const editor = page.getByTestId("document-editor");
  await expect(editor.locator('[data-suggestion="inserted"]')).toHaveText(["The slow fox.", "A new line."]);
  await expect(editor.locator('[data-suggestion="deleted"]')).toHaveText(["The quick fox."]);

  await page.getByTestId("export-markdown").click();
  await expect(page.getByTestId("export-view-accepted")).toBeChecked();
  await expectNoAxeViolations(page, "export options");
  const accepted = await downloaded(page, () => page.getByRole("button", { name: "Download" }).click());
  expect(accepted).toEqual({ name: "Reviewed plan.md", text: "# Plan\n\nThe slow fox.\n\nA new line." });
  await expect(page.getByTestId("export-markdown-options")).toHaveCount(0);

  await page.getByTestId("export-markdown").click();
  await page.getByTestId("export-view-rejected").check();
  const rejected = await downloaded(page, () => page.getByRole("button", { name: "Download" }).click());
  expect(rejected.text).toBe("# Plan\n\nThe quick fox.");

  await page.getByTestId("export-markdown").click();
  await page.getByTestId("export-view-criticmarkup").check();
  const critic = await downloaded(page, () => page.getByRole("button", { name: "Download" }).click());
  expect(critic.text).toBe(CRITIC);
});

test("Export Markdown downloads a document without suggestions at once", async ({ page, account }) => {
  const id = await account.createDocument("Plain {++ text ++}.", "Plain");
  await page.goto(`/documents/${id}`);
  await expect(page.getByTestId("document-editor")).toContainText("Plain {++ text ++}.");
  const file = await downloaded(page, () => page.getByTestId("export-markdown").click());
  expect(file).toEqual({ name: "Plain.md", text: "Plain {++ text ++}." });
  await expect(page.getByTestId("export-markdown-options")).toHaveCount(0);
});

// The export is made on the server: it must hold what the writer typed just before asking, even
// when those keystrokes are still on their way (held back here until after the export request).
test("Export Markdown right after typing holds the last words typed", async ({ page, account }) => {
  const id = await account.createDocument("Draft.", "Draft");
  const link = await cuttableSyncLink(page);
  // The keystrokes arrive a moment after the request: an export that does not wait leaves them out.
  await page.route("**/api/trpc/documents.export**", async (route) => {
    setTimeout(link.restore, 300);
    await route.continue();
  });
  await page.goto(`/documents/${id}`);
  await expect(page.getByTestId("document-editor")).toHaveText("Draft.");
  await page.getByTestId("document-editor").locator("p").click();
  await page.keyboard.press("End");
  link.cut();
  await page.keyboard.type(" Last words.");
  const file = await downloaded(page, () => page.getByTestId("export-markdown").click());
  expect(file.text).toBe("Draft. Last words.");
});
