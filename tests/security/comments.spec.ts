import { COMMENTS_ROOT_NAME, runEditorTool } from "@coauthor/tools";
import { INVALID_CONTENT, MAX_COMMENT_CHARS } from "@coauthor/types";
import * as Y from "yjs";
import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { addComment, commentInput, threadsOf } from "../lib/comments.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";

// Comments (issue #38): who may comment, what a comment may hold, and that threads are written
// only through the API — a copy's socket can neither forge nor delete one.

const connect = (client: CoauthorClient, documentId: string) =>
  new SyncClient({ baseURL: client.baseURL, cookie: client.cookie, documentId });

test.describe("who may comment", () => {
  test("a commenter comments and replies, and its text edit over the socket changes nothing", async ({
    baseURL,
  }) => {
    const { owner, member, documentId } = await sharedDocument(
      baseURL ?? "",
      "commenter",
      "The figure is 42.",
    );
    const ownerCopy = connect(owner, documentId);
    await ownerCopy.synced();

    const added = await addComment(member, documentId, "42", "Is this right?");
    expect(added.status).toBe(200);
    const threadId = added.data?.threadId ?? "";
    await expect.poll(() => threadsOf(ownerCopy).map((thread) => thread.quote)).toEqual(["42"]);
    expect(
      (await member.trpcCall("comments.reply", { documentId, threadId, body: "Checked: it is." })).status,
    ).toBe(200);
    await expect.poll(() => threadsOf(ownerCopy)[0]?.comments.length).toBe(2);

    // Its copy is read-only: an edit it sends is answered and dropped.
    const commenterCopy = connect(member, documentId);
    await commenterCopy.synced();
    const answered = commenterCopy.statusReplies;
    await runEditorTool(commenterCopy.bound.editor, "insertBlocks", {
      markdown: "Vandalism.",
      position: { at: "end" },
    });
    await expect.poll(() => commenterCopy.statusReplies).toBeGreaterThan(answered);
    expect(await owner.documentMarkdown(documentId)).toBe("The figure is 42.");

    // A commenter resolves only the threads it started; the owner resolves any.
    expect(
      (await member.trpcCall("comments.setStatus", { documentId, threadId, status: "resolved" })).status,
    ).toBe(200);
    const ownerThread = await addComment(owner, documentId, "figure", "Owner's note.");
    const refused = await member.trpcCall("comments.setStatus", {
      documentId,
      threadId: ownerThread.data?.threadId,
      status: "resolved",
    });
    expect(refused.code).toBe("FORBIDDEN");
    ownerCopy.close();
    commenterCopy.close();
  });

  test("a viewer reads threads but cannot comment; nobody edits or deletes another's comment", async ({
    baseURL,
  }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "viewer", "Viewed text.");
    const added = await addComment(owner, documentId, "Viewed", "Owner's note.");
    expect(added.status).toBe(200);
    const viewerTry = await addComment(member, documentId, "text", "Viewer's note.");
    expect(viewerTry.code).toBe("FORBIDDEN");

    const threadId = added.data?.threadId ?? "";
    const viewerCopy = connect(member, documentId);
    await viewerCopy.synced();
    await expect.poll(() => threadsOf(viewerCopy).length).toBe(1);
    const commentId = threadsOf(viewerCopy)[0]?.comments[0]?.id ?? "";
    viewerCopy.close();

    const editor = await new CoauthorClient(baseURL ?? "").signIn();
    await owner.trpc("documents.share", { id: documentId, email: editor.email, role: "editor" });
    const edit = await editor.trpcCall("comments.edit", {
      documentId,
      threadId,
      commentId,
      body: "Rewritten.",
    });
    expect(edit.code).toBe("FORBIDDEN");
    const removal = await editor.trpcCall("comments.delete", { documentId, threadId, commentId });
    expect(removal.code).toBe("FORBIDDEN");
    const stranger = await new CoauthorClient(baseURL ?? "").signIn();
    expect((await addComment(owner, documentId, "text", "x")).status).toBe(200);
    expect((await stranger.trpcCall("comments.reply", { documentId, threadId, body: "Hi" })).code).toBe(
      "NOT_FOUND",
    );
  });
});

test.describe("what a comment may hold", () => {
  test("control characters, too long, script links, strangers' mentions: refused, nothing stored", async ({
    baseURL,
  }) => {
    const { owner, documentId } = await sharedDocument(baseURL ?? "", "editor", "Some text here.");
    const copy = connect(owner, documentId);
    await copy.synced();
    const bodies = [
      "NUL \u0000 inside",
      "escape \u001b[31m",
      "x".repeat(MAX_COMMENT_CHARS + 1),
      "click javascript:alert(document.cookie)",
      "see data:text/html,<script>alert(1)</script>",
      "ask @Mallory about it",
      "   ",
    ];
    for (const body of bodies) {
      const answer = await owner.trpcCall("comments.add", commentInput(copy, documentId, "text", body));
      expect(answer.status, JSON.stringify(body.slice(0, 40))).toBe(400);
    }
    // A quote the text no longer holds is a conflict, not a thread on the wrong words.
    const moved = { ...commentInput(copy, documentId, "text", "Fine."), quote: "tex" };
    expect((await owner.trpcCall("comments.add", moved)).code).toBe("CONFLICT");
    expect(threadsOf(copy)).toEqual([]);
    expect(await owner.documentMarkdown(documentId)).toBe("Some text here.");

    // Members are mentioned by name or by their address's local part; the agent by @Coauthor.
    const local = owner.email.split("@")[0];
    const fine = await owner.trpcCall(
      "comments.add",
      commentInput(copy, documentId, "text", `@${local} and @Coauthor: see https://example.org`),
    );
    expect(fine.status).toBe(200);
    copy.close();
  });

  test("a copy that writes to the threads over the socket is closed, and nothing is stored or relayed", async ({
    baseURL,
  }) => {
    const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor", "Shared text.");
    expect((await addComment(owner, documentId, "Shared", "Owner's note.")).status).toBe(200);
    const witness = connect(owner, documentId);
    const attacker = connect(member, documentId);
    await Promise.all([witness.synced(), attacker.synced()]);
    await expect.poll(() => threadsOf(attacker).length).toBe(1);

    // Forges a reply under the owner's name, then deletes the owner's thread.
    const threads = attacker.doc.getMap<Y.Map<unknown>>(COMMENTS_ROOT_NAME);
    const [threadId] = [...threads.keys()];
    attacker.doc.transact(() => {
      const comments = threads.get(threadId ?? "")?.get("comments");
      if (!(comments instanceof Y.Array)) throw new Error("no comments array");
      comments.push([
        { id: "forged", author: { kind: "person", userId: "x", name: "Owner" }, body: "Forged", at: 1 },
      ]);
    });
    await expect.poll(() => attacker.refusals.concat(attacker.closes).join(" ")).toContain(INVALID_CONTENT);
    const deleter = connect(member, documentId);
    await deleter.synced();
    deleter.doc.transact(() => deleter.doc.getMap(COMMENTS_ROOT_NAME).delete(threadId ?? ""));
    await expect.poll(() => deleter.refusals.concat(deleter.closes).join(" ")).toContain(INVALID_CONTENT);

    // The witness (and a fresh copy, from storage) still hold the one true thread.
    const fresh = connect(owner, documentId);
    await fresh.synced();
    for (const copy of [witness, fresh]) {
      expect(threadsOf(copy).map((thread) => thread.comments.map((comment) => comment.body))).toEqual([
        ["Owner's note."],
      ]);
    }
    for (const copy of [witness, attacker, deleter, fresh]) copy.close();
  });
});
