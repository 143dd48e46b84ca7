import { expect, test } from "../lib/test.ts";
import { ask, openSeededDocument, paragraphs, waitForRunEnd } from "./helpers.ts";

// Issue #17 points 4 and 5: each tool call is a sentence in the writer's words that links to the
// block it touched; History opens each run as a rendered diff of exactly what it changed, with its
// outcome in the panel's words.

const LONG = Array.from({ length: 60 }, (_, index) => `Line ${index + 1} of the report.`).join("\n\n");

test("a tool call reads as a sentence; its link scrolls to the block and flashes it; the raw call is one click away", async ({
  page,
}) => {
  await openSeededDocument(page, LONG, "Line 60 of the report.");
  await ask(page, "agent", 'append "The very last word."');
  await waitForRunEnd(page);

  const step = page.getByTestId("assistant-tool-call");
  await expect(step).toHaveCount(1);
  const link = step.getByTestId("tool-activity-link");
  await expect(link).toHaveText("Added 1 paragraph at the end");
  // Not the old "insertBlocks ok" chip: the tool's name is only in the raw call, which is closed.
  await expect(step.getByTestId("tool-activity-raw")).not.toHaveAttribute("open", "");
  await expect(step.getByText("insertBlocks")).toBeHidden();

  const target = paragraphs(page).filter({ hasText: "The very last word." });
  const first = paragraphs(page).first();
  await first.scrollIntoViewIfNeeded();
  await expect(target).not.toBeInViewport();
  await link.click();
  await expect(target).toBeInViewport();
  await expect(target).toHaveAttribute("data-revealed", "true");
  await expect(page.getByTestId("document-editor")).toBeFocused();

  await step.getByText("Raw call").click();
  await expect(step.getByTestId("tool-activity-raw")).toContainText("insertBlocks");
  await expect(step.getByTestId("tool-activity-raw")).toContainText('"markdown": "The very last word."');
});

test("a replacement says what became what and in how many places, linking to the first", async ({ page }) => {
  await openSeededDocument(page, "Go north.\n\nThe north wind.\n\nNorth is up; north it is.", "north it is.");
  await ask(page, "agent", 'replace "north" with "south"');
  await waitForRunEnd(page);
  const link = page.getByTestId("tool-activity-link");
  await expect(link).toHaveText("Replaced 'north' with 'south' in 3 places");
  await link.click();
  await expect(paragraphs(page).first()).toHaveAttribute("data-revealed", "true");
});

test("History opens each run as a diff of exactly what it changed, its outcome in the panel's words", async ({
  page,
}) => {
  await openSeededDocument(page, "Keep me.\n\nThe cat sat on the mat.\n\nDrop this line.", "Drop this line.");
  // Each run's edits are saved once the review bar offers them.
  const review = page.getByTestId("assistant-run-review");
  for (const prompt of [
    'replace "cat" with "dog"',
    'delete paragraphs containing "Drop"',
    'append "A new ending."',
  ]) {
    await ask(page, "agent", prompt);
    await waitForRunEnd(page);
    await expect(review).toBeVisible();
  }
  const panelOutcome = await page.getByTestId("assistant-status").textContent();
  await expect(paragraphs(page)).toHaveText(["Keep me.", "The dog sat on the mat.", "A new ending."]);

  await page.getByTestId("assistant-history-toggle").click();
  const runs = page.getByTestId("run-history-item");
  await expect(runs).toHaveCount(3);
  const [appended, deleted, replaced] = [runs.nth(0), runs.nth(1), runs.nth(2)];
  await expect(appended.getByTestId("run-history-outcome")).toHaveText(panelOutcome ?? "");
  await expect(appended).toContainText("1 tool call ·");
  await expect(appended).toContainText("You ·");

  await appended.getByRole("button", { expanded: false }).click();
  let diff = appended.getByTestId("run-diff-block");
  await expect(diff).toHaveCount(1);
  await expect(diff).toHaveAttribute("data-change", "added");
  await expect(diff.locator("ins")).toHaveText("A new ending.");
  // Its step reads as in the panel.
  await expect(appended.getByTestId("run-activity")).toContainText("Added 1 paragraph at the end");
  // The raw event log is behind one disclosure.
  const log = appended.getByTestId("run-log-disclosure");
  await expect(log.getByTestId("run-log-line").first()).toBeHidden();
  await log.getByText("Event log").click();
  await expect(log.getByTestId("run-log-line").last()).toHaveAttribute("data-type", "finish");

  await deleted.getByRole("button", { expanded: false }).click();
  diff = deleted.getByTestId("run-diff-block");
  await expect(diff).toHaveCount(1);
  await expect(diff).toHaveAttribute("data-change", "removed");
  await expect(diff.locator("del")).toHaveText("Drop this line.");
  await expect(deleted.getByTestId("run-activity")).toContainText("Deleted 1 paragraph 'Drop this line.'");

  await replaced.getByRole("button", { expanded: false }).click();
  diff = replaced.getByTestId("run-diff-block");
  await expect(diff).toHaveCount(1);
  await expect(diff).toHaveAttribute("data-change", "changed");
  await expect(diff.getByTestId("run-diff-text")).toHaveText("The catdog sat on the mat.");
  await expect(diff.locator("del")).toHaveText("cat");
  await expect(diff.locator("ins")).toHaveText("dog");
  await expect(replaced.getByTestId("run-activity")).toContainText("Replaced 'cat' with 'dog' in 1 place");
});

test("a stopped run's History line says Stopped, as the panel did, and its diff holds what it added", async ({
  page,
}) => {
  await openSeededDocument(page, "Start.", "Start.");
  await ask(page, "agent", "count to 30");
  await expect(paragraphs(page).filter({ hasText: /^2$/ })).toHaveCount(1);
  await page.getByTestId("assistant-stop").click();
  await waitForRunEnd(page, "Stopped");
  // The run's edits are saved once the review bar offers them.
  await expect(page.getByTestId("assistant-run-review")).toBeVisible();
  await page.getByTestId("assistant-history-toggle").click();
  const run = page.getByTestId("run-history-item").first();
  await expect(run.getByTestId("run-history-outcome")).toHaveText("Stopped");
  await run.getByRole("button", { expanded: false }).click();
  const added = await paragraphs(page).count();
  await expect(run.getByTestId("run-diff-block")).toHaveCount(added - 1);
  await expect(run.locator("[data-testid=run-diff-block][data-change=added]")).toHaveCount(added - 1);
});
