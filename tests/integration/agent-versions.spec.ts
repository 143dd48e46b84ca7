import type { RunEvent } from "@coauthor/types";
import { $createParagraphNode, $createTextNode, $getRoot } from "lexical";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// The agent's version tools (issue #37): it lists the document's versions and reads one, run by
// the server (no tab executes them), and reading changes nothing.

const answerOf = (events: RunEvent[]) =>
  events.map((event) => (event.type === "text-delta" ? event.delta : "")).join("");

test("the agent lists the versions and reads one by name; nothing changes, no tab runs a call", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Original line.");
  await client.trpc("versions.save", { documentId, name: "First draft" });
  // The document moves on after the version.
  const copy = new SyncClient({ baseURL: baseURL ?? "", cookie: client.cookie, documentId });
  try {
    await copy.synced();
    copy.bound.editor.update(
      () => $getRoot().append($createParagraphNode().append($createTextNode("Later line."))),
      {
        discrete: true,
      },
    );
    await copy.flushed();
  } finally {
    copy.close();
  }

  const run = await client.runAgent(documentId, 'show the version "First draft"');
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(answerOf(run.events)).toContain('The version "First draft" reads: Original line.');
  expect(answerOf(run.events)).not.toContain("Later line.");
  // Both calls ran on the server: the tab was asked to run nothing.
  expect(run.events.filter((event) => event.type === "tool-call")).toEqual([]);
  expect(run.callbacks).toEqual([]);
  expect(await client.documentMarkdown(documentId)).toBe("Original line.\n\nLater line.");
});

test("a version that is not there is a failure the agent reads, not an error", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Only text.");
  const run = await client.runAgent(documentId, 'show the version "Never saved"');
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(answerOf(run.events)).toContain('No version is called "Never saved".');
});
