import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

interface HistoryRun {
  id: string;
  status: string;
  logDeleted: boolean;
}

const events = (client: CoauthorClient, runId: string) => client.fetch(`/api/runs/${runId}/events?offset=0`);
const history = (client: CoauthorClient, documentId: string) =>
  client.trpc<HistoryRun[]>("assistant.runs", { documentId }, "query");

test("a run's log: a viewer, a stranger and another editor cannot delete it; its author and the owner can", async ({
  baseURL,
}) => {
  const { owner, member: viewer, documentId } = await sharedDocument(baseURL ?? "", "viewer");
  const editor = await new CoauthorClient(baseURL ?? "").signIn();
  const otherEditor = await new CoauthorClient(baseURL ?? "").signIn();
  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  for (const member of [editor, otherEditor])
    await owner.trpc("documents.share", { id: documentId, email: member.email, role: "editor" });
  const ownerRun = await owner.runAgent(documentId, 'append "Owner line"');
  const editorRun = await editor.runAgent(documentId, 'append "Editor line"');
  // A run's end is recorded a moment after its last frame; until then its log is still being written.
  await expect
    .poll(async () => (await history(owner, documentId)).map((run) => run.status))
    .toEqual(["done", "done"]);

  const refusals = [
    { client: viewer, runId: ownerRun.runId, code: "FORBIDDEN", status: 403 },
    { client: stranger, runId: ownerRun.runId, code: "NOT_FOUND", status: 404 },
    { client: otherEditor, runId: editorRun.runId, code: "NOT_FOUND", status: 404 },
    { client: editor, runId: ownerRun.runId, code: "NOT_FOUND", status: 404 },
    { client: owner, runId: "no-such-run", code: "NOT_FOUND", status: 404 },
  ];
  for (const { client, runId, code, status } of refusals) {
    const answer = await client.trpcCall("assistant.deleteRunLog", { runId });
    expect({ code: answer.code, status: answer.status }).toEqual({ code, status });
  }
  // Nothing changed: both logs are still there.
  expect((await events(owner, ownerRun.runId)).status).toBe(200);
  expect((await events(editor, editorRun.runId)).status).toBe(200);
  expect((await history(owner, documentId)).map((run) => run.logDeleted)).toEqual([false, false]);

  // Once a viewer, the author may not either.
  await owner.trpc("documents.setRole", { id: documentId, userId: editor.userId, role: "viewer" });
  expect((await editor.trpcCall("assistant.deleteRunLog", { runId: editorRun.runId })).status).toBe(403);
  await owner.trpc("documents.setRole", { id: documentId, userId: editor.userId, role: "editor" });

  expect(await editor.trpc("assistant.deleteRunLog", { runId: editorRun.runId })).toEqual({
    runId: editorRun.runId,
  });
  expect((await events(editor, editorRun.runId)).status).toBe(410);
  expect(await owner.trpc("assistant.deleteRunLog", { runId: ownerRun.runId })).toEqual({
    runId: ownerRun.runId,
  });
  expect((await events(owner, ownerRun.runId)).status).toBe(410);
  // Again: already gone, still fine.
  expect((await owner.trpcCall("assistant.deleteRunLog", { runId: ownerRun.runId })).status).toBe(200);
  // Both lines stay in History, marked.
  expect((await history(owner, documentId)).map((run) => run.logDeleted)).toEqual([true, true]);
});

test("clearing a conversation takes only the caller's own, and needs access to the document", async ({
  baseURL,
}) => {
  const { owner, member: viewer, documentId } = await sharedDocument(baseURL ?? "", "viewer");
  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  await owner.runAgent(documentId, 'append "Line"');
  const conversation = (client: CoauthorClient) =>
    client.trpc<unknown[]>("assistant.conversation", { documentId }, "query");
  await expect.poll(async () => (await conversation(owner)).length).toBe(2);

  expect((await stranger.trpcCall("assistant.clearConversation", { documentId })).status).toBe(404);
  expect((await viewer.trpcCall("assistant.clearConversation", { documentId: "" })).status).toBe(400);
  // The viewer's (empty) conversation is theirs to clear; the owner's stays.
  expect(await viewer.trpc("assistant.clearConversation", { documentId })).toEqual({ deleted: 0 });
  expect(await conversation(owner)).toHaveLength(2);
  expect(await owner.trpc("assistant.clearConversation", { documentId })).toEqual({ deleted: 2 });
  expect(await conversation(owner)).toEqual([]);
});
