import { listSuggestions } from "@coauthor/tools";
import { sharedDocument } from "../lib/coauthor-client.ts";
import { addComment, threadsOf } from "../lib/comments.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// Asking the agent from a comment (issue #38, point 5): `@Coauthor` in a comment starts a run on
// behalf of its author that the server executes (no tab needed), its change a suggestion, its
// answer a reply in the thread; the run is in History. A commenter's ask runs with a commenter's
// rights: the agent answers, and the text does not change.

type HistoryRun = { id: string; prompt: string; status: string; summary: string | null };

test("@Coauthor in a comment: the agent proposes the change as a suggestion and answers in the thread; History has the run", async ({
  baseURL,
}) => {
  const {
    owner,
    member: bob,
    documentId,
  } = await sharedDocument(baseURL ?? "", "editor", "The survey found a rise in reading.");
  const bobCopy = new SyncClient({ baseURL: bob.baseURL, cookie: bob.cookie, documentId });
  await bobCopy.synced();
  const added = await addComment(owner, documentId, "a rise", '@Coauthor append "Source: the 2026 survey."');
  expect(added.status).toBe(200);

  // Bob's copy receives the agent's answer in the thread, by "Coauthor · for <the owner>".
  await expect.poll(() => threadsOf(bobCopy)[0]?.comments.length, { timeout: 30_000 }).toBe(2);
  const answer = threadsOf(bobCopy)[0]?.comments[1];
  expect(answer?.author).toMatchObject({ kind: "agent", userId: owner.userId });
  expect(answer?.body).toContain("Done");
  // Its change is a pending suggestion by the agent for the owner, not an edit.
  const suggestions = listSuggestions(bobCopy.bound.editor);
  expect(suggestions).toHaveLength(1);
  expect(JSON.stringify(suggestions[0])).toContain("Source: the 2026 survey.");
  expect(JSON.stringify(suggestions[0])).toContain(`Coauthor for`);

  const runs = await owner.trpc<HistoryRun[]>("assistant.runs", { documentId }, "query");
  expect(runs).toHaveLength(1);
  expect(runs[0]?.prompt).toMatch(/^append "Source: the 2026 survey\."/);
  if (answer?.author.kind === "agent") expect(answer.author.runId).toBe(runs[0]?.id);
  bobCopy.close();
});

test("a commenter's @Coauthor runs with a commenter's rights: the agent answers in the thread, the text never changes", async ({
  baseURL,
}) => {
  const {
    owner,
    member: commenter,
    documentId,
  } = await sharedDocument(baseURL ?? "", "commenter", "Chapter one opens in winter.");
  const ownerCopy = new SyncClient({ baseURL: owner.baseURL, cookie: owner.cookie, documentId });
  await ownerCopy.synced();
  const added = await addComment(commenter, documentId, "winter", '@coauthor append "Snow falls."');
  expect(added.status).toBe(200);
  await expect.poll(() => threadsOf(ownerCopy)[0]?.comments.length, { timeout: 30_000 }).toBe(2);
  const answer = threadsOf(ownerCopy)[0]?.comments[1];
  expect(answer?.author).toMatchObject({ kind: "agent", userId: commenter.userId });
  expect(answer?.body).toContain("could not");
  expect(listSuggestions(ownerCopy.bound.editor)).toEqual([]);
  expect(await owner.documentMarkdown(documentId)).toBe("Chapter one opens in winter.");
  ownerCopy.close();
});
