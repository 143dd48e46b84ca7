import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "../lib/test.ts";
import { ask, paragraphs, waitForRunEnd } from "./helpers.ts";

// The README's pictures (docs/screenshots/*.png), taken by the suite so they show the app as it
// is. Each shot first checks that its screen's key element is there, so a broken screen fails here
// instead of ending up in the README. Viewport shots, not full pages: the files stay small.

const folder = fileURLToPath(new URL("../../docs/screenshots/", import.meta.url));

const PLAN = [
  "# Launch plan",
  "",
  "We open the new reading room on the first of March, with a week of talks and a lending library.",
  "",
  "## Budget",
  "",
  "Costs were flat against last year; the talks are paid for by the city grant.",
  "",
  "## Risks",
  "",
  "The builders may need another week for the lift, which would move the opening day.",
].join("\n");

async function shoot(page: Page, name: string) {
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: `${folder}${name}.png`, animations: "disabled", caret: "hide" });
}

test.use({ viewport: { width: 1280, height: 800 } });

test("the README's screenshots: home, a run in the panel, History, sharing and the phone sheet", async ({
  page,
  account,
}) => {
  test.setTimeout(90_000);
  await account.createDocument(
    "Agenda for Monday: the budget, the lift, the opening talks.",
    "Team meeting notes",
  );
  await account.createDocument("Three chapters, each one a season in the reading room.", "Book outline");
  const documentId = await account.createDocument(PLAN, "Launch plan");

  await page.goto("/");
  await expect(page.getByTestId("document-row")).toHaveCount(3);
  await expect(page.getByTestId("new-document")).toBeVisible();
  await shoot(page, "home");

  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "true", {
    timeout: 15_000,
  });
  await expect(page.getByTestId("document-editor")).toContainText("move the opening day");
  await ask(page, "agent", "count to 12");
  await expect(paragraphs(page).filter({ hasText: /^4$/ })).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId("assistant-status")).toHaveText("Assistant is editing…");
  await shoot(page, "document-run");
  await waitForRunEnd(page);

  await page.getByTestId("assistant-history-toggle").click();
  await expect(page.getByTestId("run-history-item")).toHaveCount(1);
  await shoot(page, "history");
  await page.getByTestId("assistant-history-toggle").click();

  await page.getByRole("button", { name: "Share" }).click();
  await expect(page.getByRole("dialog", { name: "Share document" })).toBeVisible();
  await shoot(page, "share");
  await page.getByRole("button", { name: "Done" }).click();

  await page.setViewportSize({ width: 390, height: 844 });
  const toggle = page.getByTestId("assistant-toggle");
  if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
  await expect(page.getByTestId("assistant-input")).toBeVisible();
  await expect(page.getByTestId("assistant-panel")).toBeInViewport();
  await shoot(page, "phone");
});

test("the README's screenshot of a version compared with the one before it", async ({ page, account }) => {
  test.setTimeout(60_000);
  const documentId = await account.createDocument(PLAN, "Launch plan");
  await account.trpc("versions.save", { documentId, name: "First draft" });
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor")).toContainText("move the opening day", {
    timeout: 15_000,
  });
  await ask(page, "agent", 'replace "Costs were flat" with "Costs rose by a tenth"');
  await waitForRunEnd(page);
  await page.getByRole("button", { name: "Keep" }).click();
  await page.getByTestId("assistant-versions-toggle").click();
  const afterRun = page.getByTestId("version-item").first();
  await expect(afterRun).toContainText(`After Coauthor's run "replace`);
  await afterRun.getByRole("button").first().click();
  await afterRun.getByTestId("version-show-since-previous").check();
  const changes = afterRun.getByTestId("version-changes");
  // A change of several words reads as one: "were flat" → "rose by a tenth".
  await expect(changes.locator("del")).toHaveText(["were flat"]);
  await expect(changes.locator("ins")).toHaveText(["rose by a tenth"]);
  await changes.locator("del").first().scrollIntoViewIfNeeded();
  await shoot(page, "versions");
});

test("the README's screenshot of pending suggestions by the agent and by a writer", async ({
  page,
  account,
}) => {
  test.setTimeout(60_000);
  const documentId = await account.createDocument(PLAN, "Launch plan");
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor")).toContainText("move the opening day", {
    timeout: 15_000,
  });
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'replace "Costs were flat" with "Costs rose by a tenth"');
  await waitForRunEnd(page);
  // The writer's own suggestion, typed in Suggesting mode.
  await page.getByTestId("writing-mode").selectOption("suggesting");
  await paragraphs(page).last().click();
  await page.keyboard.press("End");
  await page.keyboard.type(" We will know by Friday.");
  const marked = (change: string) =>
    page.getByTestId("document-editor").locator(`[data-suggestion="${change}"]`);
  await expect(marked("inserted")).toContainText([/Costs rose by a tenth/, /We will know by Friday\./]);
  await expect(marked("deleted")).toHaveCount(2);
  await expect(page.getByTestId("suggestion-item")).toHaveCount(2);
  await shoot(page, "suggestions");
});
