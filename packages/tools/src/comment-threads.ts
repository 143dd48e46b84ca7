import {
  type Comment,
  type CommentThread,
  commentSchema,
  threadFieldsSchema as threadFields,
  type threadFieldsSchema,
} from "@coauthor/types";
import * as Y from "yjs";
import type { z } from "zod";

// Comment threads in the document's Yjs state, beside the text (root type "comments"): each
// thread a Y.Map holding its fields ("thread", one value replaced as a whole) and its comments
// ("comments", a Y.Array of values) — so two replies made at once on two instances both stay, as
// two pushes to one array merge. Only the server writes here (the sync server refuses a copy's
// update that touches it); every copy reads it live. Anchors are marks in the text (comment-anchors.ts).

/** The Yjs root type holding the threads. */
export const COMMENTS_ROOT_NAME = "comments";

type ThreadFields = z.infer<typeof threadFieldsSchema>;

function threadsOf(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap<Y.Map<unknown>>(COMMENTS_ROOT_NAME);
}

function commentsOf(thread: Y.Map<unknown>): Y.Array<Comment> {
  const comments = thread.get("comments");
  if (!(comments instanceof Y.Array)) throw new Error("a comment thread without its comments");
  return comments as Y.Array<Comment>;
}

/** A stored thread with its valid comments, or null when its stored shape is not valid. */
function parseThread(thread: Y.Map<unknown>): CommentThread | null {
  const fields = threadFields.safeParse(thread.get("thread"));
  const comments = thread.get("comments");
  if (!fields.success || !(comments instanceof Y.Array)) return null;
  const valid = comments.toArray().filter((comment) => commentSchema.safeParse(comment).success);
  return { ...fields.data, comments: valid as Comment[] };
}

/** Every thread of the document whose stored shape is valid, in no particular order. */
export function readThreads(doc: Y.Doc): CommentThread[] {
  return [...threadsOf(doc).values()].flatMap((thread) => parseThread(thread) ?? []);
}

/** One thread, or null (read alone: a document may hold a thousand). */
export function readThread(doc: Y.Doc, threadId: string): CommentThread | null {
  const thread = threadsOf(doc).get(threadId);
  const parsed = thread instanceof Y.Map ? parseThread(thread) : null;
  // A thread's id is its key; one stored under another key is not that thread.
  return parsed?.id === threadId ? parsed : null;
}

/** Adds a thread with its first comment. */
export function addThread(doc: Y.Doc, fields: ThreadFields, first: Comment): void {
  doc.transact(() => {
    const thread = new Y.Map<unknown>();
    thread.set("thread", fields);
    thread.set("comments", Y.Array.from([first]));
    threadsOf(doc).set(fields.id, thread);
  });
}

function threadMap(doc: Y.Doc, threadId: string): Y.Map<unknown> | null {
  return threadsOf(doc).get(threadId) ?? null;
}

/** Adds a reply at the end of a thread; false when there is no such thread. */
export function addReply(doc: Y.Doc, threadId: string, reply: Comment): boolean {
  const thread = threadMap(doc, threadId);
  if (thread === null) return false;
  commentsOf(thread).push([reply]);
  return true;
}

/** Replaces a comment's body (marking it edited); false when there is no such comment. */
export function editComment(
  doc: Y.Doc,
  threadId: string,
  commentId: string,
  body: string,
  at: number,
): boolean {
  const thread = threadMap(doc, threadId);
  if (thread === null) return false;
  const comments = commentsOf(thread);
  const index = comments.toArray().findIndex((comment) => comment.id === commentId);
  if (index < 0) return false;
  const edited = { ...(comments.get(index) as Comment), body, editedAt: at };
  doc.transact(() => {
    comments.delete(index, 1);
    comments.insert(index, [edited]);
  });
  return true;
}

/**
 * Deletes a comment; deleting a thread's last comment deletes the thread. Says what went
 * ("thread": the caller takes its marks off the text), or null when there was no such comment.
 */
export function deleteComment(doc: Y.Doc, threadId: string, commentId: string): "comment" | "thread" | null {
  const thread = threadMap(doc, threadId);
  if (thread === null) return null;
  const comments = commentsOf(thread);
  const index = comments.toArray().findIndex((comment) => comment.id === commentId);
  if (index < 0) return null;
  if (comments.length === 1) {
    threadsOf(doc).delete(threadId);
    return "thread";
  }
  comments.delete(index, 1);
  return "comment";
}

/** Resolves or reopens a thread; false when there is no such thread. */
export function setThreadStatus(
  doc: Y.Doc,
  threadId: string,
  status: CommentThread["status"],
  by: string,
): boolean {
  const thread = threadMap(doc, threadId);
  const fields = threadFields.safeParse(thread?.get("thread"));
  if (thread === null || !fields.success) return false;
  const { resolvedBy: _previous, ...open } = fields.data;
  thread.set("thread", status === "resolved" ? { ...open, status, resolvedBy: by } : { ...open, status });
  return true;
}
