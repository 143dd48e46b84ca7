import { expect, test } from "../lib/test.ts";
import { ask, createDocument, openSeededDocument, paragraphs, waitForRunEnd } from "./helpers.ts";

// A run that reaches a limit says so in the writer's words, says what it did and what is left, and
// Continue picks it up; a task over the whole document covers the whole document.

test("count to 40 stops at the turn limit, says what is left, and Continue finishes it", async ({ page }) => {
  test.setTimeout(120_000);
  await createDocument(page);
  await ask(page, "agent", "count to 40");
  // The default limit: 25 model turns per step (one number per turn).
  // 25 tool round trips with the offline model's typing in between: long on a busy machine.
  await waitForRunEnd(page, "Stopped at the limit of 25 model turns.", 60_000);
  await expect(paragraphs(page)).toHaveText(Array.from({ length: 25 }, (_, i) => String(i + 1)));
  await expect(page.getByTestId("assistant-messages")).toContainText(
    "I added the numbers 1 to 25 of 40; 15 are left.",
  );

  await page.getByTestId("assistant-continue").click();
  await waitForRunEnd(page, "Done", 60_000);
  await expect(paragraphs(page)).toHaveText(Array.from({ length: 40 }, (_, i) => String(i + 1)));
  await expect(page.getByTestId("assistant-continue")).toHaveCount(0);

  // History tells the two runs apart in the same words.
  await page.getByTestId("assistant-history-toggle").click();
  await expect(page.getByTestId("run-history-item").nth(0)).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("run-history-item").nth(1)).toHaveAttribute("data-status", "limit");
});

test("delete paragraphs containing a word, on a 2,000-paragraph document, deletes every match", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lines = Array.from({ length: 2_000 }, (_, i) =>
    i % 10 === 9 ? `Paragraph ${i + 1} is Obsolete.` : `Paragraph ${i + 1} stays.`,
  );
  await openSeededDocument(page, lines.join("\n\n"), "Paragraph 2000 is Obsolete.");
  await expect(paragraphs(page)).toHaveCount(2_000);

  await ask(page, "agent", 'delete paragraphs containing "Obsolete"');
  await waitForRunEnd(page, "Done", 60_000);
  // The readDocument pages (200 blocks each) were all read before deleting: none is left.
  await expect(paragraphs(page)).toHaveCount(1_800);
  await expect(paragraphs(page).filter({ hasText: "Obsolete" })).toHaveCount(0);
  await expect(paragraphs(page).last()).toHaveText("Paragraph 1999 stays.");
  await expect(page.getByTestId("assistant-messages")).toContainText("Deleting 200 paragraphs.");
});
