import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { addComment } from "../lib/comments.ts";
import { expect, type Page, test } from "../lib/test.ts";
import { contextFor, paragraphs } from "./helpers.ts";

// Notifications inside the app (issue #38, point 6): a writer sees how many threads are open and
// whether one mentions them, on the home page's row of the document (from the threads' summary in
// the database) and on the panel's Comments button (live, from the shared document).

/** The badge of the home row titled `title`. */
function rowBadge(page: Page, title: string) {
  return page.getByTestId("document-row").filter({ hasText: title }).getByTestId("comment-badge");
}

test("a mention of Bob shows on his home row and Comments button; resolving clears the count", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  if (!baseURL) throw new Error("no baseURL");
  const title = `Figures ${crypto.randomUUID().slice(0, 8)}`;
  const documentId = await account.createDocument("The figure is 42 percent.\n\nSecond paragraph.", title);
  const bob = await new CoauthorClient(baseURL).signUp({ ...freshCredentials("bob"), name: "Bob Baker" });
  await account.trpc("documents.share", { id: documentId, email: bob.email, role: "commenter" });

  const asked = await addComment(account, documentId, "42 percent", "@Bob is this figure right?");
  const plain = await addComment(account, documentId, "Second", "Expand this paragraph.");
  const askedId = asked.data?.threadId;
  const plainId = plain.data?.threadId;
  if (!askedId || !plainId) throw new Error(`comments.add answered ${asked.status} / ${plain.status}`);

  const bobContext = await contextFor(browser, bob, baseURL);
  const bobPage = await bobContext.newPage();
  await bobPage.goto("/");
  // Two open threads, one of which mentions Bob.
  await expect(rowBadge(bobPage, title)).toHaveAttribute("data-open", "2");
  await expect(rowBadge(bobPage, title)).toHaveAttribute("data-mentions", "1");
  await expect(rowBadge(bobPage, title)).toHaveText(/2 @/);
  await expect(rowBadge(bobPage, title)).toContainText("2 open comments, 1 mentions you");
  // Alice, mentioned nowhere, sees the count without the mark.
  await page.goto("/");
  await expect(rowBadge(page, title)).toHaveAttribute("data-open", "2");
  await expect(rowBadge(page, title)).toHaveAttribute("data-mentions", "0");

  // In the document, the Comments button says the same, and follows a resolve live.
  await bobPage.goto(`/documents/${documentId}`);
  await expect(paragraphs(bobPage)).toHaveText(["The figure is 42 percent.", "Second paragraph."]);
  const button = bobPage.getByTestId("assistant-comments-toggle");
  await expect(button.getByTestId("comment-badge")).toHaveAttribute("data-mentions", "1");
  await expect(button).toHaveAccessibleName(/Comments.*2 open comments, 1 mentions you/);
  const resolve = (threadId: string) =>
    account.trpc("comments.setStatus", { documentId, threadId, status: "resolved" });
  await resolve(askedId);
  await expect(button.getByTestId("comment-badge")).toHaveAttribute("data-open", "1");
  await expect(button.getByTestId("comment-badge")).toHaveAttribute("data-mentions", "0");
  await resolve(plainId);
  await expect(button.getByTestId("comment-badge")).toHaveCount(0);

  // Back home, nothing is open.
  await bobPage.goto("/");
  await expect(bobPage.getByTestId("document-row").filter({ hasText: title })).toBeVisible();
  await expect(rowBadge(bobPage, title)).toHaveCount(0);
  await bobContext.close();
});
