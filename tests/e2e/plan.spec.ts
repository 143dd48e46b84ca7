import { expect, test } from "../lib/test.ts";
import { ask, blocks, createDocument, typeParagraphs, waitForRunEnd } from "./helpers.ts";

test.describe("the agent's plan in the panel", () => {
  test("a multi-step task shows its plan as a checklist that fills in live", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Cats sleep most of the day. They wake at dusk.", "Dogs like walks."]);
    await ask(page, "agent", "summarize the document");

    const plan = page.getByTestId("assistant-plan");
    const steps = page.getByTestId("assistant-plan-step");
    await expect(plan).toBeVisible();
    await expect(steps).toHaveText([/Read the document/, /Write the summary at the end/]);
    // Each step says what it must achieve.
    await expect(page.getByTestId("assistant-plan-criteria")).toHaveText([
      "Done when: every page has been read",
      "Done when: a Summary heading with one sentence per paragraph ends the document",
    ]);
    // The second step is seen running while the summary types itself in.
    await expect(steps.nth(1)).toHaveAttribute("data-status", "running");
    await waitForRunEnd(page);
    await expect(steps.nth(0)).toHaveAttribute("data-status", "done");
    await expect(steps.nth(1)).toHaveAttribute("data-status", "done");
    await expect(page.getByTestId("assistant-plan-progress")).toHaveText("2/2");
    await expect(blocks(page).nth(2)).toHaveText("Summary");
  });

  test("a simple request shows no plan", async ({ page }) => {
    await createDocument(page);
    await typeParagraphs(page, ["Start."]);
    await ask(page, "agent", 'append "One more line"');
    await waitForRunEnd(page);
    await expect(blocks(page)).toHaveText(["Start.", "One more line"]);
    await expect(page.getByTestId("assistant-plan")).toHaveCount(0);
  });
});
