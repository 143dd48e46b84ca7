import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { expect, type Page, test } from "../lib/test.ts";
import { expectNoAxeViolations } from "./accessibility-helpers.ts";
import { ask, waitForRunEnd, waitForSave } from "./helpers.ts";

/** The titles of the rows the home page shows, in order. */
const titles = (page: Page) => page.getByTestId("document-row").locator(".document-row-title");

const rowOf = (page: Page, title: string) => page.getByTestId("document-row").filter({ hasText: title });

test("search finds a document by a word only in its text; each row shows a snippet, its last editor and role", async ({
  page,
  account,
  baseURL,
}) => {
  const owner = await new CoauthorClient(baseURL ?? "").signUp({
    ...freshCredentials("owner"),
    name: "Olive Owner",
  });
  await owner.createDocument("The zeppelin budget is flat this quarter.", "Quarterly numbers");
  await owner.createDocument("Nothing about airships here.", "Meeting notes");
  await owner.createDocument("", "100% done_list");

  // A shared document the page's user ("Test writer") edits in the browser: its text and last
  // editor come from the sync server.
  const sharedId = await owner.createDocument("Shared start.", "Shared draft");
  await owner.trpc("documents.share", { id: sharedId, email: account.email, role: "editor" });
  await owner.trpc("documents.share", {
    id: await owner.createDocument("Read me.", "Read-only brief"),
    email: account.email,
    role: "viewer",
  });

  await page.goto(`/documents/${sharedId}`);
  const editor = page.getByTestId("document-editor");
  await expect(editor).toHaveAttribute("contenteditable", "true", { timeout: 15_000 });
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Marmalade forecast.");
  await waitForSave(page);
  // The text is stored for search when the sync server stores the document (a debounce after typing).
  await expect
    .poll(async () => {
      const list = await page.request.get(
        `/api/trpc/documents.list?input=${encodeURIComponent(JSON.stringify({ query: "marmalade" }))}`,
      );
      return ((await list.json()) as { result: { data: { items: unknown[] } } }).result.data.items.length;
    })
    .toBe(1);

  await page.goto("/");
  await expect(page.getByTestId("document-row")).toHaveCount(2);
  const shared = rowOf(page, "Shared draft");
  await expect(shared.getByTestId("document-snippet")).toHaveText("Shared start. Marmalade forecast.");
  await expect(shared.getByTestId("document-edited")).toContainText("by Test writer");
  await expect(shared.getByTestId("document-role")).toHaveText("Shared · editor");
  await expect(rowOf(page, "Read-only brief").getByTestId("document-role")).toHaveText("Shared · viewer");
  await expect(rowOf(page, "Read-only brief").getByRole("button", { name: /Rename/ })).toHaveCount(0);

  const search = page.getByRole("searchbox", { name: "Search titles and text" });
  await search.fill("MARMALADE");
  await expect(titles(page)).toHaveText(["Shared draft"]);
  await expect(page.getByTestId("document-list-status")).toHaveText("1 document matching “MARMALADE”");
  await expectNoAxeViolations(page, "home, search results");
  await search.fill("nothing matches this");
  await expect(page.getByTestId("document-list-status")).toHaveText(
    "No document matches “nothing matches this”.",
  );
  await expect(page.getByTestId("document-row")).toHaveCount(0);

  // The owner's list: a word only in the body finds it, the snippet starts near the match; and the
  // LIKE wildcards are plain characters.
  await page.context().clearCookies();
  const cookies = owner.cookie.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseURL ?? "" };
  });
  await page.context().addCookies(cookies);
  await page.goto("/");
  await expect(rowOf(page, "Quarterly numbers").getByTestId("document-role")).toHaveText("Owner");
  await expect(rowOf(page, "Quarterly numbers").getByTestId("document-edited")).toContainText(
    "by Olive Owner",
  );
  await search.fill("zeppelin");
  await expect(titles(page)).toHaveText(["Quarterly numbers"]);
  await expect(rowOf(page, "Quarterly numbers").getByTestId("document-snippet")).toContainText(
    "zeppelin budget",
  );
  await search.fill("%");
  await expect(titles(page)).toHaveText(["100% done_list"]);
  await search.fill("e_l");
  await expect(titles(page)).toHaveText(["100% done_list"]);
});

test("the list sorts by last edited, title and creation", async ({ page, account }) => {
  for (const title of ["Alpha", "Charlie", "Bravo"]) await account.createDocument(`${title} text.`, title);
  // Renaming edits: Alpha becomes the last edited, and stays the first created.
  await account.trpc("documents.rename", {
    id: (
      await account.trpc<{ items: { id: string; title: string }[] }>(
        "documents.list",
        { sort: "created" },
        "query",
      )
    ).items.find((item) => item.title === "Alpha")?.id,
    title: "Alpha",
  });
  await page.goto("/");
  const sort = page.getByRole("combobox", { name: "Sort by" });
  await expect(sort).toHaveValue("edited");
  await expect(titles(page)).toHaveText(["Alpha", "Bravo", "Charlie"]);
  await sort.selectOption("created");
  await expect(titles(page)).toHaveText(["Bravo", "Charlie", "Alpha"]);
  await sort.selectOption("title");
  await expect(titles(page)).toHaveText(["Alpha", "Bravo", "Charlie"]);
});

test("inline rename: Enter saves (after a reload too), Esc cancels, focus stays on Rename", async ({
  page,
  account,
}) => {
  await account.createDocument("Body.", "Old name");
  await page.goto("/");
  await page.getByRole("button", { name: "Rename Old name" }).click();
  const field = page.getByRole("textbox", { name: "New title for Old name" });
  await expect(field).toBeFocused();
  await field.fill("Discarded name");
  await field.press("Escape");
  await expect(titles(page)).toHaveText(["Old name"]);
  await expect(page.getByRole("button", { name: "Rename Old name" })).toBeFocused();

  await page.keyboard.press("Enter");
  await page.getByRole("textbox", { name: "New title for Old name" }).fill("New name");
  await page.keyboard.press("Enter");
  await expect(titles(page)).toHaveText(["New name"]);
  await expect(page.getByRole("button", { name: "Rename New name" })).toBeFocused();
  await page.reload();
  await expect(titles(page)).toHaveText(["New name"]);
  expect(
    (await account.trpc<{ items: { title: string }[] }>("documents.list", {}, "query")).items.map(
      (item) => item.title,
    ),
  ).toEqual(["New name"]);
});

test("clearing the conversation empties the panel, after a reload too; deleting a run's log keeps its line", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByTestId("new-document").click();
  await page.waitForURL(/\/documents\/[^/]+$/);
  await expect(page.getByTestId("document-editor")).toHaveAttribute("contenteditable", "true", {
    timeout: 15_000,
  });
  await ask(page, "agent", 'append "Kept line"');
  await waitForRunEnd(page);
  const messages = page.getByTestId("assistant-messages");
  await page.reload();
  await expect(messages.locator(".message-user")).toHaveText(['append "Kept line"']);

  // The run's log, from History: a confirmation first; the line stays, its log does not.
  await page.getByTestId("assistant-history-toggle").click();
  const run = page.getByTestId("run-history-item");
  await run.getByTestId("delete-run-log").click();
  await expect(run.getByTestId("confirm-delete-run-log")).toBeFocused();
  await run.getByTestId("confirm-delete-run-log").click();
  await expect(run.getByTestId("run-log-deleted")).toHaveText("Its event log was deleted.");
  await expect(run).toContainText('append "Kept line"');
  await page.getByTestId("assistant-history-toggle").click();

  await page.getByTestId("clear-conversation").click();
  await page.locator(".clear-conversation-confirm").getByRole("button", { name: "Cancel" }).click();
  await expect(messages.locator(".message-user")).toHaveCount(1);
  await page.getByTestId("clear-conversation").click();
  await page.getByTestId("confirm-clear-conversation").click();
  await expect(messages.locator(".message")).toHaveCount(0);
  await expect(page.getByTestId("document-editor")).toContainText("Kept line");
  await page.reload();
  await expect(page.getByTestId("document-editor")).toContainText("Kept line");
  await expect(messages.locator(".messages-empty")).toBeVisible();
  await expect(messages.locator(".message")).toHaveCount(0);
});
