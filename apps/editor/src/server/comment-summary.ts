import { COMMENTS_ROOT_NAME, readThread } from "@coauthor/tools";
import { type CommentThread, mentionNamesOf, mentionsIn } from "@coauthor/types";
import { and, eq, inArray, sql } from "drizzle-orm";
import * as Y from "yjs";
import { getDb } from "./db";
import { commentThreads } from "./db/schema";
import { listMembers } from "./document-members";

// The comment threads' summary in the database (comment_threads: status and mentioned members per
// thread), which the home page counts without reading any document's Yjs state. The server is the
// threads' only writer, and every one of its writes goes through editLiveDocument, which records
// here what its edit did to threads — so the summary changes in the call that changes a thread.

/** A thread as the summary keeps it, or null: the thread is gone. */
export type ThreadSummary = { status: CommentThread["status"]; mentionedNames: string[] } | null;

/**
 * Watches `doc`'s threads while an edit runs; the returned function says, afterwards, what the
 * edit left of each thread it touched (a new thread, a reply, an edit, a status, a deletion).
 */
export function watchThreadChanges(doc: Y.Doc): () => Map<string, ThreadSummary> {
  const touched = new Set<string>();
  const threads = doc.getMap(COMMENTS_ROOT_NAME);
  const record = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
    for (const event of events) {
      // A change inside a thread has the thread's id first in its path; one to the map of threads
      // (a thread added or deleted) names its id among the changed keys.
      const [threadId] = event.path;
      if (typeof threadId === "string") touched.add(threadId);
      else if (event instanceof Y.YMapEvent) for (const key of event.keysChanged) touched.add(key);
    }
  };
  threads.observeDeep(record);
  return () => {
    threads.unobserveDeep(record);
    return new Map([...touched].map((threadId) => [threadId, summaryOf(readThread(doc, threadId))]));
  };
}

function summaryOf(thread: CommentThread | null): ThreadSummary {
  if (thread === null) return null;
  const mentioned = new Set(thread.comments.flatMap((comment) => mentionsIn(comment.body)));
  return { status: thread.status, mentionedNames: [...mentioned].map((name) => name.toLowerCase()) };
}

/** The members a summary's names mention, as user ids (a name two members share mentions both). */
async function mentionedUserIds(
  documentId: string,
  summaries: Map<string, ThreadSummary>,
): Promise<(names: string[]) => string[]> {
  const anyMentions = [...summaries.values()].some((summary) => (summary?.mentionedNames.length ?? 0) > 0);
  if (!anyMentions) return () => [];
  const members = (await listMembers(documentId)).map((member) => ({
    userId: member.userId,
    names: mentionNamesOf(member),
  }));
  return (names) =>
    members.filter((member) => names.some((name) => member.names.includes(name))).map((m) => m.userId);
}

/** Writes what an edit left of the threads it touched: rows upserted, gone threads' rows deleted. */
export async function recordThreadSummaries(
  documentId: string,
  summaries: Map<string, ThreadSummary>,
): Promise<void> {
  if (summaries.size === 0) return;
  const idsOf = await mentionedUserIds(documentId, summaries);
  const gone = [...summaries].filter(([, summary]) => summary === null).map(([threadId]) => threadId);
  const rows = [...summaries].flatMap(([threadId, summary]) =>
    summary === null
      ? []
      : [{ documentId, threadId, status: summary.status, mentionedUserIds: idsOf(summary.mentionedNames) }],
  );
  const db = await getDb();
  if (gone.length > 0) {
    await db
      .delete(commentThreads)
      .where(and(eq(commentThreads.documentId, documentId), inArray(commentThreads.threadId, gone)));
  }
  if (rows.length > 0) {
    await db
      .insert(commentThreads)
      .values(rows)
      .onConflictDoUpdate({
        target: [commentThreads.documentId, commentThreads.threadId],
        set: {
          status: sql`excluded.status`,
          mentionedUserIds: sql`excluded.mentioned_user_ids`,
          updatedAt: sql`now()`,
        },
      });
  }
}
