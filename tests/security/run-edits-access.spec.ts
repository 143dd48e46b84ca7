import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// A run's stored edits are what History's diff shows and what Undo run takes back. History lists
// every run on a document for its owner (audit) and their own for members: the edits follow it.

const edits = {
  beforeOrder: ["a"],
  afterOrder: ["a", "b"],
  before: {},
  after: { b: { type: "paragraph", children: [{ type: "text", text: "Added." }] } },
  inserted: ["b"],
  deleted: [],
  changed: [],
  moved: [],
};

test("a run's edits are read by its starter and the document's owner, saved only by its starter", async ({
  baseURL,
}) => {
  const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
  const other = await new CoauthorClient(baseURL ?? "").signIn();
  await owner.trpc("documents.share", { id: documentId, email: other.email, role: "editor" });
  const stranger = await new CoauthorClient(baseURL ?? "").signIn();
  const run = await member.runAgent(documentId, 'append "Added."');
  await member.trpc("assistant.addRunEdits", { runId: run.runId, edits });

  const read = (client: CoauthorClient) =>
    client.trpcCall("assistant.runEdits", { runId: run.runId }, "query");
  expect((await read(member)).data).toEqual(edits);
  expect((await read(owner)).data).toEqual(edits);
  expect(await read(other)).toMatchObject({ status: 404, code: "NOT_FOUND" });
  expect(await read(stranger)).toMatchObject({ status: 404, code: "NOT_FOUND" });

  // Only the starter may save (and so undo) a run's edits; nothing changes for the others' tries.
  const changed = { ...edits, inserted: [], after: {} };
  for (const client of [owner, other, stranger])
    expect(
      await client.trpcCall("assistant.addRunEdits", { runId: run.runId, edits: changed }),
    ).toMatchObject({
      status: 404,
    });
  expect((await read(member)).data).toEqual(edits);
});
