import { expect, type Page, test } from "../lib/test.ts";
import { ask, createDocument, paragraphs, typeParagraphs, waitForRunEnd } from "./helpers.ts";

// Recipes in the panel: a pipeline runs as a live tree of its steps while its edits land; Stop
// ends it mid-pipeline; a writer's own recipe with a mistake shows the mistake at its line.

const node = (page: Page, path: string) => page.locator(`[data-testid="pipeline-node"][data-path="${path}"]`);

test("Review and revise runs two rounds as a live tree while the edits land", async ({ page }) => {
  test.setTimeout(90_000);
  await createDocument(page);
  await typeParagraphs(page, ["Opening line."]);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("assistant-recipe").selectOption({ label: "Review and revise" });
  await ask(page, "agent", 'append "Another line."');

  const tree = page.getByTestId("pipeline-tree");
  await expect(tree).toBeVisible();
  // The critic asks for another pass in round 1 and approves in round 2.
  await expect(node(page, "0.loop.1").getByTestId("pipeline-node-detail").first()).toContainText(
    "approved: false",
  );
  await expect(node(page, "0").getByTestId("pipeline-node-detail").first()).toContainText("round 2");
  await waitForRunEnd(page, "Done", 60_000);
  await expect(node(page, "0.loop.1").getByTestId("pipeline-node-detail").first()).toContainText(
    "approved: true",
  );
  await expect(node(page, "0")).toHaveAttribute("data-status", "done");
  // The writer agent appended in each round.
  await expect(paragraphs(page)).toHaveText(["Opening line.", "Another line.", "Another line."]);
});

test("Stop ends a pipeline mid-run: its running step fails and nothing lands afterwards", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await createDocument(page);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("assistant-recipe").selectOption({ label: "Review and revise" });
  await ask(page, "agent", "count to 30");
  await expect(paragraphs(page).filter({ hasText: /^3$/ })).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId("assistant-stop").click();
  await expect(page.getByTestId("assistant-status")).toHaveText("Stopped", { timeout: 1_000 });
  await expect(node(page, "0.loop.0")).toHaveAttribute("data-status", "failed");
  const count = await paragraphs(page).count();
  expect(count).toBeLessThan(30);
  // The server stopped too: the run is recorded as cancelled and the document stays as it was.
  await page.getByTestId("assistant-history-toggle").click();
  await expect(page.getByTestId("run-history-item").first()).toHaveAttribute("data-status", "cancelled");
  expect(await paragraphs(page).count()).toBe(count);
});

test("a recipe with a mistake shows it at its line; fixed, it is saved and picked", async ({ page }) => {
  await createDocument(page);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("assistant-recipe-edit").click();
  const definition = [
    "version: 1",
    "name: Tidy check",
    "agents:",
    "  - id: checker",
    "    instructions: Check the document.",
    "    tools: read",
    "steps:",
    "  - agent: checker",
    "  - agent: tidier",
  ].join("\n");
  await page.getByTestId("recipe-definition").fill(definition);
  await page.getByTestId("recipe-save").click();
  const issue = page.getByTestId("recipe-issue");
  await expect(issue).toHaveText(
    'Line 9, column 12 (steps[1].agent): no agent has the id "tidier" (agents: checker)',
  );
  // Choosing the mistake puts the cursor on it.
  await issue.click();
  const caret = await page
    .getByTestId("recipe-definition")
    .evaluate((area) => (area as HTMLTextAreaElement).selectionStart);
  expect(caret).toBe(definition.indexOf("tidier"));

  await page.getByTestId("recipe-definition").fill(definition.replace("  - agent: tidier", ""));
  await page.getByTestId("recipe-save").click();
  await expect(page.getByTestId("recipe-editor")).toHaveCount(0);
  await expect(page.getByTestId("assistant-recipe").locator("option:checked")).toHaveText(
    "Tidy check (yours)",
  );
});
