import { expect, type Page } from "@playwright/test";

/** Creates a document from the list page and waits for its editor. */
export async function createDocument(page: Page): Promise<string> {
  await page.goto("/");
  await page.getByTestId("new-document").click();
  await page.waitForURL(/\/documents\/[^/]+$/);
  await expect(page.getByTestId("document-editor")).toBeVisible();
  return page.url();
}

/** The editor's paragraphs' texts, in order. */
export function paragraphs(page: Page) {
  return page.getByTestId("document-editor").locator("p");
}

/** Sends a prompt in the given mode. */
export async function ask(page: Page, mode: "agent" | "chat", prompt: string) {
  await page.getByTestId(`assistant-mode-${mode}`).click();
  await page.getByTestId("assistant-input").fill(prompt);
  await page.getByTestId("assistant-send").click();
}

/** Waits until autosave has stored everything typed so far. */
export async function waitForSave(page: Page) {
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 10_000 });
}
