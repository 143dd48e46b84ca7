import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addReply, addThread, deleteComment, editComment, setThreadStatus } from "@coauthor/tools";
import type { Comment } from "@coauthor/types";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";

// The threads' summary on a real embedded database (PGlite in a throwaway folder, migrated like
// the app's): what an edit did to threads becomes rows the home list counts.
const dataDir = mkdtempSync(join(tmpdir(), "coauthor-comment-summary-"));
process.env.COAUTHOR_DATA_DIR = dataDir;
const { getDb } = await import("@/server/db");
const schema = await import("@/server/db/schema");
const { recordThreadSummaries, watchThreadChanges } = await import("./comment-summary");
const { listDocuments } = await import("./document-list");

const person = (userId: string, name: string) => ({ kind: "person" as const, userId, name });
const comment = (id: string, body: string): Comment => ({
  id,
  author: person("alice", "Alice"),
  body,
  at: 1,
});

/** Runs `edit` on `doc` and records what it did to threads, as a server edit does. */
async function recorded(documentId: string, doc: Y.Doc, edit: () => void): Promise<void> {
  const changes = watchThreadChanges(doc);
  edit();
  await recordThreadSummaries(documentId, changes());
}

async function rowsOf(documentId: string) {
  const db = await getDb();
  const rows = await db
    .select({
      threadId: schema.commentThreads.threadId,
      status: schema.commentThreads.status,
      mentioned: schema.commentThreads.mentionedUserIds,
    })
    .from(schema.commentThreads)
    .where(eq(schema.commentThreads.documentId, documentId));
  return rows.sort((a, b) => a.threadId.localeCompare(b.threadId));
}

async function listedCounts(userId: string, documentId: string) {
  const { items } = await listDocuments(userId, { sort: "edited", cursor: 0 });
  const row = items.find((item) => item.id === documentId);
  return { open: row?.openThreads, mentions: row?.openMentions };
}

beforeAll(async () => {
  const db = await getDb();
  await db.insert(schema.users).values([
    { id: "alice", name: "Alice Martin", email: "alice@example.test" },
    { id: "bob", name: "Bob Stone", email: "rob@example.test" },
    { id: "carol", name: "Carol", email: "carol@example.test" },
  ]);
  await db.insert(schema.documents).values([
    { id: "doc", ownerId: "alice", title: "T" },
    { id: "gone", ownerId: "alice", title: "U" },
  ]);
  await db.insert(schema.documentMembers).values([
    { documentId: "doc", userId: "bob", role: "commenter" },
    { documentId: "doc", userId: "carol", role: "viewer" },
  ]);
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the comment threads' summary", () => {
  it("follows threads as they start, gain replies, change status and go", async () => {
    const doc = new Y.Doc();
    await recorded("doc", doc, () => {
      addThread(doc, { id: "t1", quote: "a", status: "open", at: 1 }, comment("c1", "Is this right, @Bob?"));
      addThread(doc, { id: "t2", quote: "b", status: "open", at: 1 }, comment("c2", "No mention."));
    });
    expect(await rowsOf("doc")).toEqual([
      { threadId: "t1", status: "open", mentioned: ["bob"] },
      { threadId: "t2", status: "open", mentioned: [] },
    ]);
    expect(await listedCounts("bob", "doc")).toEqual({ open: 2, mentions: 1 });
    expect(await listedCounts("carol", "doc")).toEqual({ open: 2, mentions: 0 });

    // A reply mentions Carol (by her email's local part) on t2; t1 is resolved.
    await recorded("doc", doc, () => addReply(doc, "t2", comment("c3", "@carol, can you check?")));
    await recorded("doc", doc, () => setThreadStatus(doc, "t1", "resolved", "Alice"));
    expect(await rowsOf("doc")).toEqual([
      { threadId: "t1", status: "resolved", mentioned: ["bob"] },
      { threadId: "t2", status: "open", mentioned: ["carol"] },
    ]);
    expect(await listedCounts("bob", "doc")).toEqual({ open: 1, mentions: 0 });
    expect(await listedCounts("carol", "doc")).toEqual({ open: 1, mentions: 1 });

    // Editing the mention away clears it; deleting a thread's last comment deletes its row.
    await recorded("doc", doc, () => editComment(doc, "t2", "c3", "Can someone check?", 2));
    await recorded("doc", doc, () => deleteComment(doc, "t1", "c1"));
    expect(await rowsOf("doc")).toEqual([{ threadId: "t2", status: "open", mentioned: [] }]);
  });

  it("names every member a mention fits, and nobody for a name no member has", async () => {
    const doc = new Y.Doc();
    await recorded("doc", doc, () =>
      addThread(
        doc,
        { id: "t3", quote: "c", status: "open", at: 1 },
        comment("c4", "@rob @AliceMartin and @Coauthor, see @nobody"),
      ),
    );
    const row = (await rowsOf("doc")).find((candidate) => candidate.threadId === "t3");
    expect(row?.mentioned.sort()).toEqual(["alice", "bob"]);
  });

  it("writes nothing for an edit that touched no thread", async () => {
    const doc = new Y.Doc();
    const changes = watchThreadChanges(doc);
    doc.getText("other").insert(0, "text");
    expect(changes().size).toBe(0);
  });

  it("goes with its document", async () => {
    const doc = new Y.Doc();
    await recorded("gone", doc, () =>
      addThread(doc, { id: "t9", quote: "d", status: "open", at: 1 }, comment("c9", "Soon gone.")),
    );
    expect(await rowsOf("gone")).toHaveLength(1);
    const db = await getDb();
    await db.delete(schema.documents).where(eq(schema.documents.id, "gone"));
    expect(await rowsOf("gone")).toEqual([]);
  });
});
