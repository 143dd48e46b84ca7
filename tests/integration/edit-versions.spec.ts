import { $createParagraphNode, $createTextNode, $getRoot } from "lexical";
import { CoauthorClient, freshCredentials } from "../lib/coauthor-client.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "../reliability/file-server.ts";

// Versions after a pause in editing (issue #37): once people stop editing a document, its state is
// kept as a version naming who edited since the last one. A server of its own with a short pause;
// the interval (at most one such version per ten minutes) is the unit test's (edit-versions.test.ts).
const server = serverForThisFile({ VERSION_PAUSE_MS: "500", VERSION_INTERVAL_MS: "600000" });

type Version = { id: number; kind: string; label: string };

function appendParagraph(writer: SyncClient, text: string): void {
  writer.bound.editor.update(
    () => {
      $getRoot().append($createParagraphNode().append($createTextNode(text)));
    },
    { discrete: true },
  );
}

test("two people edit, then pause: one version names both and holds what they typed", async () => {
  const alice = await new CoauthorClient(server.url).signUp(freshCredentials("alice"));
  const bob = await new CoauthorClient(server.url).signUp(freshCredentials("bob"));
  const documentId = await alice.createDocument("Opening line.");
  await alice.trpc("documents.share", { id: documentId, email: bob.email, role: "editor" });
  const aliceCopy = new SyncClient({ baseURL: server.url, cookie: alice.cookie, documentId });
  const bobCopy = new SyncClient({ baseURL: server.url, cookie: bob.cookie, documentId });
  try {
    await Promise.all([aliceCopy.synced(), bobCopy.synced()]);
    appendParagraph(aliceCopy, "Alice was here.");
    appendParagraph(bobCopy, "Bob was here.");
    await Promise.all([aliceCopy.flushed(), bobCopy.flushed()]);

    const editVersions = async () =>
      (await alice.trpc<Version[]>("versions.list", { documentId }, "query")).filter(
        (version) => version.kind === "edits",
      );
    await expect.poll(async () => (await editVersions()).length, { timeout: 15_000 }).toBe(1);
    const [version] = await editVersions();
    if (!version) throw new Error("no version after the pause");
    expect([`Edits by Test alice and Test bob`, `Edits by Test bob and Test alice`]).toContain(version.label);
    const { markdown } = await alice.trpc<{ markdown: string }>(
      "versions.read",
      { documentId, versionId: version.id },
      "query",
    );
    expect(markdown).toContain("Alice was here.");
    expect(markdown).toContain("Bob was here.");
  } finally {
    aliceCopy.close();
    bobCopy.close();
  }
});
