import {
  $findQuoteRange,
  $markCommentRange,
  $unmarkThread,
  addReply,
  addThread,
  type CommentRange,
  deleteComment,
  editComment,
  readThread,
  setThreadStatus,
} from "@coauthor/tools";
import {
  type AddCommentInput,
  AGENT_MENTION_NAME,
  type Comment,
  type CommentAuthor,
  type CommentThread,
  MAX_COMMENT_QUOTE_CHARS,
  mentionNamesOf,
  mentionsIn,
} from "@coauthor/types";
import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { type DocumentRole, roleAllows } from "./auth/roles";
import { editLiveDocument } from "./collab/live-edit";
import { getDb } from "./db";
import { users } from "./db/schema";
import { listMembers } from "./document-members";
import { badRequest } from "./trpc/refusal";

// Comment threads are written only here (the sync server refuses a copy's update that touches
// them): each change is checked against the writer's role and the thread, then made on the live
// document as a server edit every open copy receives (collab/live-edit.ts).

/** Who is commenting: their id, their role on the document, and the Yjs state their copy held. */
export type Commenter = { userId: string; role: DocumentRole; stateVector?: Uint8Array };

/** Refuses a body that mentions someone who is not a member of the document. */
export async function checkMentions(documentId: string, body: string): Promise<void> {
  const mentioned = mentionsIn(body);
  if (mentioned.length === 0) return;
  const known = new Set([AGENT_MENTION_NAME, ...(await listMembers(documentId)).flatMap(mentionNamesOf)]);
  const strangers = mentioned.filter((name) => !known.has(name.toLowerCase()));
  if (strangers.length > 0) {
    throw badRequest(
      "unknown-mention",
      `@${strangers[0]} is not a member of this document: mention someone it is shared with`,
    );
  }
}

export async function authorOf(userId: string): Promise<CommentAuthor> {
  const db = await getDb();
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return { kind: "person", userId, name: row?.name ?? "Someone" };
}

function noSuchThread(): never {
  throw new TRPCError({ code: "NOT_FOUND", message: "this document has no such comment" });
}

/** A thread's quote as kept: the commented text, cut past MAX_COMMENT_QUOTE_CHARS. */
function keptQuote(quote: string): string {
  return quote.length > MAX_COMMENT_QUOTE_CHARS ? `${quote.slice(0, MAX_COMMENT_QUOTE_CHARS)}…` : quote;
}

/** Where a new thread goes: a range the writer selected, or the first occurrence of its quote in a block (the agent's way). */
type ThreadPlace = CommentRange | { blockId: string };

/** What starting a thread came to: started, already there (a call run again), or its text is not there. */
type ThreadStart = "started" | "exists" | "text-changed";

/** Starts thread `threadId` with its first comment, marking its text; nothing when it exists already. */
export async function startThread(args: {
  documentId: string;
  actingUserId: string;
  threadId: string;
  place: ThreadPlace;
  quote: string;
  first: Comment;
  stateVector?: Uint8Array;
}): Promise<ThreadStart> {
  const { threadId, quote, first } = args;
  return editLiveDocument(
    args.documentId,
    args.actingUserId,
    (copy): ThreadStart => {
      if (readThread(copy.doc, threadId) !== null) return "exists";
      let marked = false;
      copy.editor.update(
        () => {
          const range = "anchor" in args.place ? args.place : $findQuoteRange(args.place.blockId, quote);
          marked = range !== null && $markCommentRange(range, quote, threadId) === null;
        },
        { discrete: true },
      );
      if (!marked) return "text-changed";
      addThread(copy.doc, { id: threadId, quote: keptQuote(quote), status: "open", at: first.at }, first);
      return "started";
    },
    args.stateVector,
  );
}

/** Starts a thread on a range of the text; its id. */
export async function addComment(who: Commenter, input: AddCommentInput): Promise<{ threadId: string }> {
  await checkMentions(input.documentId, input.body);
  const author = await authorOf(who.userId);
  const threadId = crypto.randomUUID();
  const started = await startThread({
    documentId: input.documentId,
    actingUserId: who.userId,
    threadId,
    place: { anchor: input.anchor, focus: input.focus },
    quote: input.quote,
    first: { id: crypto.randomUUID(), author, body: input.body, at: Date.now() },
    stateVector: who.stateVector,
  });
  if (started === "text-changed") {
    throw new TRPCError({
      code: "CONFLICT",
      message: "the text changed since you selected it: select it again",
    });
  }
  return { threadId };
}

/** Changes one thread (the live copy's), refusing when the document has no such thread. */
export async function changeThread(
  documentId: string,
  who: Commenter,
  threadId: string,
  change: (thread: CommentThread, copy: Parameters<Parameters<typeof editLiveDocument>[2]>[0]) => void,
): Promise<void> {
  const found = await editLiveDocument(documentId, who.userId, (copy) => {
    const thread = readThread(copy.doc, threadId);
    if (thread === null) return false;
    change(thread, copy);
    return true;
  });
  if (!found) noSuchThread();
}

function ownComment(thread: CommentThread, commentId: string, userId: string): Comment {
  const comment = thread.comments.find((candidate) => candidate.id === commentId);
  if (comment === undefined) noSuchThread();
  if (comment.author.kind !== "person" || comment.author.userId !== userId) {
    throw new TRPCError({ code: "FORBIDDEN", message: "you can change only your own comments" });
  }
  return comment;
}

export async function replyToComment(
  who: Commenter,
  input: { documentId: string; threadId: string; body: string },
): Promise<{ commentId: string }> {
  await checkMentions(input.documentId, input.body);
  const author = await authorOf(who.userId);
  const reply: Comment = { id: crypto.randomUUID(), author, body: input.body, at: Date.now() };
  await changeThread(input.documentId, who, input.threadId, (_thread, copy) => {
    addReply(copy.doc, input.threadId, reply);
  });
  return { commentId: reply.id };
}

export async function editOwnComment(
  who: Commenter,
  input: { documentId: string; threadId: string; commentId: string; body: string },
): Promise<void> {
  await checkMentions(input.documentId, input.body);
  await changeThread(input.documentId, who, input.threadId, (thread, copy) => {
    ownComment(thread, input.commentId, who.userId);
    editComment(copy.doc, input.threadId, input.commentId, input.body, Date.now());
  });
}

/** Deletes one's own comment; the thread's last comment takes the thread (and its marks) with it. */
export async function deleteOwnComment(
  who: Commenter,
  input: { documentId: string; threadId: string; commentId: string },
): Promise<"comment" | "thread"> {
  let deleted: "comment" | "thread" = "comment";
  await changeThread(input.documentId, who, input.threadId, (thread, copy) => {
    ownComment(thread, input.commentId, who.userId);
    if (deleteComment(copy.doc, input.threadId, input.commentId) === "thread") {
      deleted = "thread";
      copy.editor.update(() => $unmarkThread(input.threadId), { discrete: true });
    }
  });
  return deleted;
}

/** Resolves or reopens a thread: owners and editors any, commenters the threads they started. */
export async function setCommentStatus(
  who: Commenter,
  input: { documentId: string; threadId: string; status: "open" | "resolved" },
): Promise<void> {
  const author = await authorOf(who.userId);
  await changeThread(input.documentId, who, input.threadId, (thread, copy) => {
    const starter = thread.comments[0]?.author;
    const started = starter?.kind === "person" && starter.userId === who.userId;
    if (!roleAllows(who.role, "edit") && !started) {
      throw new TRPCError({ code: "FORBIDDEN", message: "only editors resolve threads others started" });
    }
    setThreadStatus(copy.doc, input.threadId, input.status, author.name);
  });
}
