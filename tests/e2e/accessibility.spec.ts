import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { ask, createDocument, typeParagraphs, waitForRunEnd } from "./helpers.ts";

test.describe("signed out", () => {
  test.use({ signedIn: false });

  test("sign-in and sign-up have no WCAG 2.2 AA violations and say what they are", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page).toHaveTitle("Sign in — Coauthor");
    await expectNoAxeViolations(page, "sign-in");
    await page.goto("/sign-up");
    await expect(page).toHaveTitle("Sign up — Coauthor");
    await expectNoAxeViolations(page, "sign-up");
  });
});

test("the document list has no WCAG 2.2 AA violations", async ({ page, account }) => {
  await account.createDocument("First words.", "Budget");
  await account.createDocument("", "Untitled document");
  await page.goto("/");
  await expect(page).toHaveTitle("Documents — Coauthor");
  await expect(page.getByTestId("document-row")).toHaveCount(2);
  await expectNoAxeViolations(page, "home");
  await page.getByRole("button", { name: "Delete Budget" }).click();
  await expectNoAxeViolations(page, "home, confirming a delete");
});

test("the document page has no WCAG 2.2 AA violations: idle, during and after a run, History, dialogs", async ({
  page,
}) => {
  await createDocument(page);
  await expect(page).toHaveTitle("Untitled document — Coauthor");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Untitled document");
  await typeParagraphs(page, ["Accessible writing."]);
  await expectNoAxeViolations(page, "document, idle");

  // A long answer keeps the run going while axe looks at the panel.
  await ask(page, "agent", "write 300 words");
  await expect(page.getByTestId("assistant-messages").locator(".message-assistant")).toContainText("w5");
  await expectNoAxeViolations(page, "document, panel during a run");
  await expect(page.getByTestId("assistant-status")).toHaveText("Assistant is editing…");
  await page.getByTestId("assistant-stop").click();
  await waitForRunEnd(page, "Stopped");

  await ask(page, "agent", "count to 3");
  await waitForRunEnd(page);
  await expect(page.getByTestId("assistant-run-review")).toBeVisible();
  await expectNoAxeViolations(page, "document, panel after a run (tool steps, review bar)");

  await page.getByTestId("assistant-history-toggle").click();
  await page.getByTestId("run-history-item").first().getByRole("button", { expanded: false }).click();
  await expect(page.getByTestId("run-diff-block").first()).toBeVisible();
  await expect(page.getByTestId("run-activity").getByTestId("assistant-tool-call")).toHaveCount(3);
  await expectNoAxeViolations(page, "History with a run's diff open");
  await page.getByTestId("run-details").getByText("Raw call").first().click();
  await page.getByTestId("run-log-disclosure").getByText("Event log").click();
  await expect(page.getByTestId("run-log-line").first()).toBeVisible();
  await expectNoAxeViolations(page, "History with a run's raw call and event log open");
  await page.getByTestId("assistant-history-toggle").click();

  await page.getByRole("button", { name: "Share" }).click();
  await expect(page.getByRole("dialog", { name: "Share document" })).toBeVisible();
  await expectNoAxeViolations(page, "share dialog");
  await page.getByRole("button", { name: "Done" }).click();

  await page.getByTestId("assistant-shortcuts").click();
  await expect(page.getByTestId("shortcuts-dialog")).toBeVisible();
  await expectNoAxeViolations(page, "shortcuts dialog");
});

test("a viewer's read-only document page has no WCAG 2.2 AA violations", async ({
  page,
  account,
  baseURL,
}) => {
  const owner = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await owner.createDocument("Read, do not touch.", "Shared notes");
  await owner.trpc("documents.share", { id: documentId, email: account.email, role: "viewer" });
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("role-badge")).toHaveText("View only");
  await expect(page.getByTestId("document-editor")).toContainText("Read, do not touch.");
  await expectNoAxeViolations(page, "document, viewer");
});

test("a phone-sized document page has no WCAG 2.2 AA violations, sheet closed or open", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await createDocument(page);
  await expectNoAxeViolations(page, "document at 390 px, assistant closed");
  await page.getByTestId("assistant-toggle").click();
  await expect(page.getByTestId("assistant-input")).toBeVisible();
  await expectNoAxeViolations(page, "document at 390 px, assistant sheet open");
});

test("the tab is titled after the document and follows a rename", async ({ page, account }) => {
  const documentId = await account.createDocument("Some words.", "Quarterly plan");
  await page.goto(`/documents/${documentId}`);
  await expect(page).toHaveTitle("Quarterly plan — Coauthor");
  const title = page.getByTestId("document-title");
  await title.fill("Yearly plan");
  await title.press("Enter");
  await expect(page).toHaveTitle("Yearly plan — Coauthor");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Yearly plan");
});

test("recipes and pipelines have no WCAG 2.2 AA violations: the recipe editor with a mistake, the tree during and after a run", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await createDocument(page);
  await typeParagraphs(page, ["Opening line."]);
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("assistant-recipe-edit").click();
  await expect(page.getByTestId("recipe-editor")).toBeVisible();
  await expectNoAxeViolations(page, "recipe editor, open");
  await page
    .getByTestId("recipe-definition")
    .fill(["version: 1", "name: Broken", "agents: []", "steps:", "  - agent: nobody"].join("\n"));
  await page.getByTestId("recipe-save").click();
  await expect(page.getByTestId("recipe-issue").first()).toBeVisible();
  await expectNoAxeViolations(page, "recipe editor, showing a mistake");
  await page.getByTestId("recipe-editor").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("recipe-editor")).toHaveCount(0);

  await page.getByTestId("assistant-recipe").selectOption({ label: "Review and revise" });
  await ask(page, "agent", 'append "Another line."');
  const roundOne = page.locator('[data-testid="pipeline-node"][data-path="0.loop.1"]');
  await expect(roundOne.getByTestId("pipeline-node-detail").first()).toContainText("approved: false", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("assistant-status")).toHaveText("Assistant is editing…");
  await expectNoAxeViolations(page, "pipeline tree, during a run");
  await waitForRunEnd(page, "Done", 60_000);
  await expect(page.getByTestId("pipeline-tree")).toBeVisible();
  await expectNoAxeViolations(page, "pipeline tree, after a run");
});

test("pending suggestions (marked blocks, the review list) and the Versions view have no WCAG 2.2 AA violations", async ({
  page,
  account,
}) => {
  const documentId = await account.createDocument("Alpha line.\n\nBeta line.");
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor")).toContainText("Beta line.");
  await page.getByTestId("assistant-mode-agent").click();
  await page.getByTestId("edit-mode-suggest").click();
  await ask(page, "agent", 'replace "line" with "row"');
  await waitForRunEnd(page);
  await expect(page.getByTestId("suggestion-item")).toHaveCount(2);
  await expectNoAxeViolations(page, "document with pending suggestions and the review list");

  await page.getByTestId("assistant-versions-toggle").click();
  await page.getByTestId("version-name").fill("Reviewed");
  await page.getByTestId("version-save").click();
  await expect(page.getByTestId("version-item").filter({ hasText: "Reviewed" })).toHaveCount(1);
  await page.getByTestId("version-item").first().getByRole("button").first().click();
  await expect(page.getByTestId("version-document")).toBeVisible();
  await expectNoAxeViolations(page, "Versions view with a version open");
});
