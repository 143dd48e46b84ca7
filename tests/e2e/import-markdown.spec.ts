import { expect, type Page, test } from "../lib/test.ts";
import { paragraphs } from "./helpers.ts";

// Import Markdown… on the home page: a file becomes a new document; CriticMarkup in it becomes the
// importing writer's pending suggestions (the format Export Markdown writes them in).

const file = (name: string, text: string) => ({ name, mimeType: "text/markdown", buffer: Buffer.from(text) });

/** Opens the home page and imports `name` through the button's file chooser, as a writer does. */
async function importFile(page: Page, name: string, text: string) {
  await page.goto("/");
  // The list has loaded: the page is live.
  await expect(page.getByTestId("document-list-status")).not.toHaveText("Loading…");
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId("import-markdown").click();
  await (await chooser).setFiles(file(name, text));
}

test("a Markdown file with CriticMarkup becomes a document whose changes are the importer's suggestions", async ({
  page,
}) => {
  await importFile(
    page,
    "Field notes.md",
    "# Notes\n\nThe {~~quick~>slow~~} fox.\n\n{++A new line.++}{>>Added for clarity.<<}",
  );
  await expect(page).toHaveURL(/\/documents\//);
  await expect(page.getByTestId("document-title")).toHaveValue("Field notes");
  const editor = page.getByTestId("document-editor");
  await expect(editor.locator('[data-suggestion="deleted"]')).toHaveText(["The quick fox."]);
  await expect(editor.locator('[data-suggestion="inserted"]')).toHaveText(["The slow fox.", "A new line."]);
  await expect(page.getByTestId("suggestion-item")).toHaveCount(2);
  await expect(page.getByTestId("suggestion-item").nth(1)).toContainText("Added for clarity.");

  // A plain Markdown file imports as it is, with nothing pending.
  await importFile(page, "plain.md", "One.\n\nTwo.");
  await expect(page).toHaveURL(/\/documents\//);
  await expect(paragraphs(page)).toHaveText(["One.", "Two."]);
  await expect(page.getByTestId("suggestion-review")).toHaveCount(0);
});

test("a file the importer refuses leaves the home page with a clear error and no new document", async ({
  page,
}) => {
  // A change left open is not CriticMarkup the importer reads.
  await importFile(page, "broken.md", "The {++open change.");
  await expect(page.locator(".document-list").getByRole("alert")).toContainText(`"{++" is never closed`);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("document-list-status")).toContainText("No documents yet");
});
