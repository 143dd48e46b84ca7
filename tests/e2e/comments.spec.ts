import { $createParagraphNode, $createTextNode, $getRoot } from "lexical";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { addComment } from "../lib/comments.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, type Page, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { ask, contextFor, paragraphs, waitForRunEnd } from "./helpers.ts";

// Comments in the page (issue #38): select text, Comment (or Ctrl+Alt+M), and the thread reaches a
// co-editor live, highlighted in the text; a commenter replies from a read-only copy; resolving
// reaches both copies.

/** Selects the first occurrence of `text` in the document, as a writer dragging over it would. */
async function selectText(page: Page, text: string) {
  await page.getByTestId("document-editor").evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return;
    }
    throw new Error(`no text "${wanted}"`);
  }, text);
}

async function openComments(page: Page) {
  const toggle = page.getByTestId("assistant-comments-toggle");
  if ((await toggle.getAttribute("aria-pressed")) !== "true") await toggle.click();
  await expect(page.getByTestId("comments-view")).toBeVisible();
}

test("a thread on selected text reaches a commenter live; the commenter replies; resolve reaches both", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("The figure is 42 percent.\n\nSecond paragraph.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["The figure is 42 percent.", "Second paragraph."]);

  const bob = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "commenter" });
  const bobContext = await contextFor(browser, bob, baseURL);
  const bobPage = await bobContext.newPage();
  await bobPage.goto(`/documents/${documentId}`);
  await expect(bobPage.getByTestId("role-badge")).toHaveText("Can comment");
  await openComments(bobPage);

  // Alice selects "figure" and comments from the toolbar.
  await page.getByTestId("document-editor").click();
  await selectText(page, "figure");
  await page.getByTestId("comment-button").click();
  await expect(page.getByTestId("new-comment")).toContainText("figure");
  await expectNoAxeViolations(page, "a new comment's form");
  await page.getByTestId("new-comment-body").fill("Is this figure right?");
  await page.getByTestId("new-comment-submit").click();

  const bobThread = bobPage.getByTestId("comment-thread");
  await expect(bobThread).toHaveCount(1);
  await expect(bobThread).toContainText("figure");
  await expect(bobThread).toContainText("Is this figure right?");
  await expect(bobPage.locator(".doc-comment")).toHaveText("figure");
  await expect(page.locator(".doc-comment")).toHaveText("figure");
  await expectNoAxeViolations(bobPage, "a commenter's Comments view with a thread");

  // Bob replies; Alice sees it without reloading.
  await bobThread.getByTestId("comment-reply-body").fill("Yes, from the March report.");
  await bobThread.getByTestId("comment-reply-submit").click();
  await openComments(page);
  await expect(page.getByTestId("comment-thread").getByTestId("comment")).toHaveCount(2);

  // Bob, read-only, starts his own thread with the keyboard on the second paragraph.
  await selectText(bobPage, "Second");
  await bobPage.keyboard.press("Control+Alt+M");
  await bobPage.getByTestId("new-comment-body").fill("Expand this?");
  await bobPage.getByTestId("new-comment-submit").click();
  await expect(page.getByTestId("comment-thread")).toHaveCount(2);
  // Listed in the order of their text.
  await expect(page.getByTestId("comment-thread").nth(1)).toContainText("Expand this?");

  // Alice resolves the first: it leaves the open list in both copies, and its text is unhighlighted.
  await page.getByTestId("comment-thread").first().getByTestId("comment-resolve").click();
  await expect(bobPage.getByTestId("comment-thread")).toHaveCount(1);
  await expect(bobPage.locator(".doc-comment.doc-comment-quiet")).toHaveText("figure");
  // The document's text never changed.
  await expect(paragraphs(bobPage)).toHaveText(["The figure is 42 percent.", "Second paragraph."]);
  await bobContext.close();
});

test("the agent comments as Coauthor for its writer, and the co-editor sees the thread during the run", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Revenue grew 40 percent in March.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["Revenue grew 40 percent in March."]);
  const bob = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  const bobContext = await contextFor(browser, bob, baseURL);
  const bobPage = await bobContext.newPage();
  await bobPage.goto(`/documents/${documentId}`);
  await openComments(bobPage);

  await ask(page, "agent", 'comment on "40 percent" saying "Is this year over year?"');
  await waitForRunEnd(page);
  const thread = bobPage.getByTestId("comment-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread).toContainText("40 percent");
  await expect(thread).toContainText("Is this year over year?");
  await expect(thread.getByTestId("comment")).toContainText("Coauthor · for");
  await expect(bobPage.locator(".doc-comment")).toHaveText("40 percent");
  // A comment never changes the text.
  await expect(paragraphs(bobPage)).toHaveText(["Revenue grew 40 percent in March."]);
  await bobContext.close();
});

test("the Review with comments recipe leaves comments a co-editor sees, and changes no text", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const documentId = await account.createDocument("Our plan is good. It has three parts.\n\nThe end.");
  await page.goto(`/documents/${documentId}`);
  const bob = await new CoauthorClient(baseURL).signIn();
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "commenter" });
  const bobContext = await contextFor(browser, bob, baseURL);
  const bobPage = await bobContext.newPage();
  await bobPage.goto(`/documents/${documentId}`);
  await openComments(bobPage);

  await page.getByTestId("assistant-recipe").selectOption({ label: "Review with comments" });
  await ask(page, "agent", "Review my draft");
  await waitForRunEnd(page);
  const thread = bobPage.getByTestId("comment-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread).toContainText("Our plan is good.");
  await expect(thread.getByTestId("comment")).toContainText("Coauthor · for");
  await expect(paragraphs(page)).toHaveText(["Our plan is good. It has three parts.", "The end."]);
  await bobContext.close();
});

test("@Coauthor in a comment: the agent's change is a suggestion that says where it was asked; accepting it resolves the thread", async ({
  page,
  account,
}) => {
  const documentId = await account.createDocument("The survey found a rise in reading.");
  await page.goto(`/documents/${documentId}`);
  await expect(paragraphs(page)).toHaveText(["The survey found a rise in reading."]);
  const added = await addComment(
    account,
    documentId,
    "a rise",
    '@Coauthor append "Source: the 2026 survey."',
  );
  expect(added.status).toBe(200);

  const suggestion = page.getByTestId("suggestion-item");
  await expect(suggestion).toHaveCount(1, { timeout: 30_000 });
  await expect(suggestion.getByTestId("suggestion-from-comment")).toBeVisible();
  await suggestion.getByRole("button", { name: "Accept", exact: true }).click();
  await expect(paragraphs(page)).toHaveText([
    "The survey found a rise in reading.",
    "Source: the 2026 survey.",
  ]);

  // The thread the agent answered is resolved, for everyone.
  await openComments(page);
  await page.getByRole("button", { name: /^Resolved/ }).click();
  await expect(page.getByTestId("comment-thread")).toHaveAttribute("data-status", "resolved");
});

test("open threads sit in the margin level with their text, follow it as a co-editor writes above, and open in the panel; on a narrow page they are a list under the document", async ({
  page,
  account,
}) => {
  const filler = Array.from({ length: 12 }, (_, index) => `Filler paragraph ${index + 1}.`);
  const documentId = await account.createDocument(
    ["The figure is 42 percent.", ...filler, "The date is wrong."].join("\n\n"),
  );
  await addComment(account, documentId, "figure", "Is this figure right?");
  await addComment(account, documentId, "date", "Which date?");
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`/documents/${documentId}`);
  const cards = page.getByTestId("comment-margin-card");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText("Is this figure right?");
  await expect(cards.nth(1)).toContainText("Which date?");

  // Beside the text, each level with the words it is on (the cards follow a render after the text).
  const levelWith = async (card: number, text: string) => {
    const editor = page.getByTestId("document-editor");
    await expect
      .poll(async () => {
        const cardBox = await cards.nth(card).boundingBox();
        const markBox = await editor.getByText(text, { exact: true }).boundingBox();
        const editorBox = await editor.boundingBox();
        if (!cardBox || !markBox || !editorBox) return "not laid out";
        if (cardBox.x < editorBox.x + editorBox.width) return "over the text";
        return Math.abs(cardBox.y - markBox.y) < 4 ? "level" : `${cardBox.y - markBox.y} px off`;
      })
      .toBe("level");
  };
  await levelWith(0, "figure");
  await levelWith(1, "date");
  await expectNoAxeViolations(page, "comments in the margin");

  // A co-editor's two paragraphs above move the words down; the cards follow.
  const coEditor = new SyncClient({ baseURL: account.baseURL, cookie: account.cookie, documentId });
  try {
    await coEditor.synced();
    coEditor.bound.editor.update(
      () => {
        const first = $getRoot().getFirstChild();
        for (const text of ["Added above.", "Added above too."])
          first?.insertBefore($createParagraphNode().append($createTextNode(text)));
      },
      { discrete: true },
    );
    await coEditor.flushed();
  } finally {
    coEditor.close();
  }
  await expect(paragraphs(page).nth(2)).toHaveText("The figure is 42 percent.");
  await levelWith(0, "figure");
  await levelWith(1, "date");

  // A card opens its thread in the panel's Comments view, focused.
  await cards.nth(1).getByRole("button").click();
  await expect(page.getByTestId("comments-view")).toBeVisible();
  await expect(page.locator('[data-testid="comment-thread"]:focus')).toContainText("Which date?");

  // A phone's width leaves no room beside the text: the cards are a list under the document.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByTestId("comment-margin")).toHaveClass(/comment-margin-under/);
  const editorBox = await page.getByTestId("document-editor").boundingBox();
  const listBox = await page.getByTestId("comment-margin").boundingBox();
  if (!editorBox || !listBox) throw new Error("not laid out");
  expect(listBox.y).toBeGreaterThanOrEqual(editorBox.y + editorBox.height);
});
