import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { expect, type Page, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { ask, coEditorPage, contextFor, paragraphs, waitForRunEnd, waitForSave } from "./helpers.ts";

// Versions: taken around every agent run and by name; restoring one is a forward change that
// every open copy receives live, and a viewer cannot restore.

async function openVersions(page: Page) {
  await page.getByTestId("assistant-versions-toggle").click();
  await expect(page.getByTestId("version-history")).toBeVisible();
}

test("a named version, versions around an agent run, and a restore that reaches a co-editor live", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Original text.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Original text."]);

  // Bob, an editor, has the document open throughout.
  const { context: bobContext, page: bobPage } = await coEditorPage(browser, account, documentId, baseURL);
  await expect(paragraphs(bobPage)).toHaveText(["Original text."]);

  await openVersions(page);
  await page.getByTestId("version-name").fill("First draft");
  await page.getByTestId("version-save").click();
  await expect(page.getByTestId("version-item")).toHaveCount(1);
  await expect(page.getByTestId("version-item").first()).toContainText("First draft");

  // The agent appends a line: a version before and one after its run.
  await ask(page, "agent", 'append "Agent line"');
  await waitForRunEnd(page);
  await expect(paragraphs(bobPage)).toHaveText(["Original text.", "Agent line"]);
  await openVersions(page);
  await expect(page.getByTestId("version-item")).toHaveCount(3);
  await expect(page.getByTestId("version-item").nth(0)).toContainText(`After Coauthor's run "append`);
  await expect(page.getByTestId("version-item").nth(1)).toContainText(`Before Coauthor's run "append`);

  // Bob types too; then Alice restores "First draft": both copies show it, a backup is listed.
  await bobPage.getByTestId("document-editor").click();
  await bobPage.keyboard.press("Control+End");
  await bobPage.keyboard.press("Enter");
  await bobPage.keyboard.type("Bob's line");
  await waitForSave(bobPage);
  await expect(paragraphs(page)).toHaveText(["Original text.", "Agent line", "Bob's line"]);
  const firstDraft = page.getByTestId("version-item").filter({ hasText: "First draft" });
  await firstDraft.getByRole("button").first().click();
  await expect(firstDraft.getByTestId("version-document")).toHaveText("Original text.");
  await firstDraft.getByTestId("version-restore").click();
  await expect(firstDraft.getByTestId("version-restored")).toBeVisible();
  await expect(paragraphs(page)).toHaveText(["Original text."]);
  await expect(paragraphs(bobPage)).toHaveText(["Original text."]);
  await expect(page.getByTestId("version-item").first()).toContainText('Before restoring "First draft"');

  // Stored as any edit: a reload shows the restored text, and the backup holds what was replaced.
  await waitForSave(bobPage);
  await bobPage.reload();
  await expect(paragraphs(bobPage)).toHaveText(["Original text."]);
  const backup = page.getByTestId("version-item").first();
  await backup.getByRole("button").first().click();
  await expect(backup.getByTestId("version-document").locator("p")).toHaveText([
    "Original text.",
    "Agent line",
    "Bob's line",
  ]);
  await bobContext.close();
});

test("every version names the people who changed the document since the version before", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Original text.");
  const bob = await new CoauthorClient(baseURL).signUp(freshCredentials("bob"));
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  const bobContext = await contextFor(browser, bob, baseURL);
  const bobPage = await bobContext.newPage();
  await bobPage.goto(`/documents/${documentId}`);
  await expect(paragraphs(bobPage)).toHaveText(["Original text."]);
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Original text."]);

  // Bob types, then Alice saves a version at once: it names Bob, and not her.
  await bobPage.getByTestId("document-editor").click();
  await bobPage.keyboard.press("Control+End");
  await bobPage.keyboard.type(" Bob was here.");
  await expect(paragraphs(page)).toHaveText(["Original text. Bob was here."]);
  await openVersions(page);
  await page.getByTestId("version-name").fill("Checked");
  await page.getByTestId("version-save").click();
  const checked = page.getByTestId("version-item").filter({ hasText: "Checked" });
  await expect(checked.getByTestId("version-people")).toHaveText(
    "Changed since the version before by Test bob",
  );

  // Alice types and saves again: that version names her only (Bob's edits are the version's before).
  await page.getByTestId("document-editor").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Alice too.");
  await page.getByTestId("version-name").fill("Second");
  await page.getByTestId("version-save").click();
  const second = page.getByTestId("version-item").filter({ hasText: "Second" });
  await expect(second.getByTestId("version-people")).toHaveText(
    "Changed since the version before by Test writer",
  );
  await bobContext.close();
});

test("a viewer sees versions but cannot save or restore one, and the server refuses if asked", async ({
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Kept text.");
  const saved = await account.trpc<{ versionId: number }>("versions.save", { documentId, name: "Kept" });
  const viewer = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: viewer.email, role: "viewer" });
  const context = await contextFor(browser, viewer, baseURL);
  const page = await context.newPage();
  await page.goto(`/documents/${documentId}`);
  await openVersions(page);
  await expect(page.getByTestId("version-item")).toHaveCount(1);
  await expect(page.getByTestId("version-save")).toHaveCount(0);
  await page.getByTestId("version-item").getByRole("button").first().click();
  await expect(page.getByTestId("version-document")).toHaveText("Kept text.");
  await expect(page.getByTestId("version-restore")).toHaveCount(0);
  const restore = await viewer.trpcCall("versions.restore", { documentId, versionId: saved.versionId });
  expect(restore.status).toBe(403);
  const save = await viewer.trpcCall("versions.save", { documentId, name: "Mine" });
  expect(save.status).toBe(403);
  // Someone who is not a member learns nothing: not found.
  const stranger = await new CoauthorClient(baseURL).signIn();
  expect((await stranger.trpcCall("versions.list", { documentId }, "query")).status).toBe(404);
  await context.close();
});

test("an open version compares, word by word, with the version before it and with the document now", async ({
  page,
  account,
}) => {
  const documentId = await account.createDocument("Original text.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Original text."]);
  await ask(page, "agent", 'append "Agent line"');
  await waitForRunEnd(page);
  await openVersions(page);
  const items = page.getByTestId("version-item");
  await expect(items).toHaveCount(2);

  // The version after the run, against the one before it: the run's line, inserted, nothing deleted.
  const afterRun = items.nth(0);
  await afterRun.getByRole("button").first().click();
  await afterRun.getByTestId("version-show-since-previous").check();
  const changes = afterRun.getByTestId("version-changes");
  await expect(changes.locator("ins")).toContainText("Agent line");
  await expect(changes.locator("del")).toHaveCount(0);
  // Block by block, with who wrote each change: the run's line is the agent's, the rest unchanged.
  await expect(changes.locator('[data-change="added"]')).toContainText("Added · written by Coauthor for");
  await expect(changes.locator('[data-change="same"]')).toHaveText("Original text.");
  await expectNoAxeViolations(page, "a version's changes since the one before");

  // The oldest has nothing before it; against now it shows what came since.
  const beforeRun = items.nth(1);
  await beforeRun.getByRole("button").first().click();
  await expect(beforeRun.getByTestId("version-show-since-previous")).toBeDisabled();
  await beforeRun.getByTestId("version-show-to-now").check();
  await expect(beforeRun.getByTestId("version-changes").locator("ins")).toContainText("Agent line");
  await beforeRun.getByTestId("version-show-version").check();
  await expect(beforeRun.getByTestId("version-document")).toHaveText("Original text.");
});

test("a co-editor offline during a restore merges what they typed when they reconnect, and the text the restore removed stays gone", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Kept line.\n\nSecond line.");
  const { versionId } = await account.trpc<{ versionId: number }>("versions.save", {
    documentId,
    name: "Two lines",
  });
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Kept line.", "Second line."]);
  // Alice adds a line after the version: the restore will take it away.
  await paragraphs(page).last().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Added later.");
  await waitForSave(page);

  const { context: bobContext, page: bobPage } = await coEditorPage(browser, account, documentId, baseURL);
  await expect(paragraphs(bobPage)).toHaveText(["Kept line.", "Second line.", "Added later."]);
  await waitForSave(bobPage);
  await bobContext.setOffline(true);
  await expect(bobPage.getByTestId("save-status")).toHaveText("Offline — your changes are kept", {
    timeout: 15_000,
  });
  // Offline, Bob still has the line the restore is about to remove, and types in the first one.
  await paragraphs(bobPage).first().click();
  await bobPage.keyboard.press("End");
  await bobPage.keyboard.type(" Bob offline.");

  await account.trpc("versions.restore", { documentId, versionId });
  await expect(paragraphs(page)).toHaveText(["Kept line.", "Second line."]);
  await bobContext.setOffline(false);
  // Bob's words merge into the line the restore kept; the removed line does not come back.
  const merged = ["Kept line. Bob offline.", "Second line."];
  await expect(paragraphs(bobPage)).toHaveText(merged, { timeout: 15_000 });
  await expect(paragraphs(page)).toHaveText(merged);
  await waitForSave(bobPage);
  await expect
    .poll(() => account.documentMarkdown(documentId))
    .toBe("Kept line. Bob offline.\n\nSecond line.");
  await bobContext.close();
});

test("a version reads as the document does, and a changed heading is compared word by word as a heading", async ({
  page,
  account,
}) => {
  const documentId = await account.createDocument("# Plan\n\nSome **bold** words.\n\n- one\n- two", "Plan");
  await account.trpc("versions.save", { documentId, name: "First" });
  await page.goto(`/documents/${documentId}`);
  await expect(page.getByTestId("document-editor").locator("h1")).toHaveText("Plan");
  await ask(page, "agent", 'replace "Plan" with "Budget"');
  await waitForRunEnd(page);
  await openVersions(page);

  // The named version, read-only as the document shows it: no Markdown marks.
  const first = page.getByTestId("version-item").filter({ hasText: "First" });
  await first.getByRole("button").first().click();
  const shown = first.getByTestId("version-document");
  await expect(shown.locator("h1")).toHaveText("Plan");
  await expect(shown.locator("strong")).toHaveText("bold");
  await expect(shown.locator("li")).toHaveText(["one", "two"]);
  await expect(shown).not.toContainText("**");

  // The run's version against the one before: the heading is still a heading, its word replaced.
  const afterRun = page.getByTestId("version-item").first();
  await afterRun.getByRole("button").first().click();
  await afterRun.getByTestId("version-show-since-previous").check();
  const heading = afterRun.getByTestId("version-changes").locator('[data-change="changed"] h1');
  await expect(heading.locator("del")).toHaveText("Plan");
  await expect(heading.locator("ins")).toHaveText("Budget");
  await expectNoAxeViolations(page, "a version compared as the document reads");
});
