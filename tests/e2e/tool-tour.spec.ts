import { TOUR_DOCUMENT as DOCUMENT, TOUR_TOOLS } from "../lib/fixtures.ts";
import { expect, test } from "../lib/test.ts";
import { ask, blocks, openSeededDocument, waitForRunEnd, waitForSave } from "./helpers.ts";

const BEFORE = [
  "Project notes",
  "We fixed teh bug and wrote teh docs.",
  "first itemsecond item",
  "TaskStatusShipOpen",
  "Closing words.",
];
const AFTER = [
  "Project notes",
  "We fixed the bug and wrote the docs.",
  "TaskStatusShipDone",
  "Closing words.",
  "first itemsecond item",
  "Next stepOwnerReviewWriter",
];

test("an agent run with six different tools on headings, lists and a table; Undo run restores it exactly", async ({
  page,
}) => {
  await openSeededDocument(page, DOCUMENT, "Closing words.");
  const editor = page.getByTestId("document-editor");
  await expect(blocks(page)).toHaveText(BEFORE);
  const before = await editor.innerHTML();

  await ask(page, "agent", "tidy up");
  await waitForRunEnd(page);
  await expect(blocks(page)).toHaveText(AFTER);
  await expect(editor.locator("blockquote")).toHaveText("We fixed the bug and wrote the docs.");
  await expect(editor.locator("h1 strong, h1 b, h1 .editor-text-bold").first()).toHaveText("Project");
  await expect(editor.locator("table")).toHaveCount(2);
  const steps = page.getByTestId("assistant-tool-call");
  const tools = await steps.evaluateAll((lines) => lines.map((line) => line.getAttribute("data-tool")));
  for (const tool of TOUR_TOOLS) expect(tools).toContain(tool);
  // Each step is a sentence in the writer's words, not the tool's name.
  for (const sentence of await steps.locator(".tool-activity-text").allTextContents())
    expect(sentence).toMatch(
      /^(Read|Found|Looked|Added|Rewrote|Replaced|Deleted|Moved|Turned|Formatted|Set) /,
    );

  // Ctrl+Z is the writer's own: it never takes the agent's edits back.
  await editor.locator("p").last().click();
  await page.keyboard.press("Control+z");
  await expect(blocks(page)).toHaveText(AFTER);
  await page.getByTestId("assistant-undo-run").click();
  await expect(blocks(page)).toHaveText(BEFORE);
  await expect.poll(() => editor.innerHTML(), { timeout: 5_000 }).toBe(before);
});

test("Undo run after the writer typed in another paragraph takes back the agent's part only", async ({
  page,
}) => {
  await openSeededDocument(page, DOCUMENT, "Closing words.");
  await ask(page, "agent", "tidy up");
  await waitForRunEnd(page);
  await expect(blocks(page)).toHaveText(AFTER);

  const closing = page.getByTestId("document-editor").locator("p", { hasText: "Closing words." });
  await closing.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Mine.");
  await expect(closing).toHaveText("Closing words. Mine.");
  // The words are in the shared document (the browser shows typed text a moment before the
  // editor has taken it in; a move made in that moment would carry the block without them).
  await waitForSave(page);

  await page.getByTestId("assistant-undo-run").click();
  await expect(blocks(page)).toHaveText([
    "Project notes",
    "We fixed teh bug and wrote teh docs.",
    "first itemsecond item",
    "TaskStatusShipOpen",
    "Closing words. Mine.",
  ]);
  await expect(page.getByTestId("document-editor").locator("blockquote")).toHaveCount(0);
});
