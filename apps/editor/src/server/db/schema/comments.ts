import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";
import { documentRef } from "./documents";

// What the home page shows of a document's comment threads without reading its Yjs state: one row
// per thread, with its status and who it mentions. The threads themselves (their text) live only
// in the document's state; the server, their only writer, keeps this summary in step in the call
// that changes a thread (collab/live-edit.ts). Ids and a status only, so nothing of the comments'
// text is stored twice; rows go with their document.
export const commentThreads = pgTable(
  "comment_threads",
  {
    documentId: documentRef("document_id"),
    threadId: text("thread_id").notNull(),
    status: text("status", { enum: ["open", "resolved"] }).notNull(),
    /** The members the thread's comments mention (`@name`), as user ids. */
    mentionedUserIds: text("mentioned_user_ids").array().notNull().default([]),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.threadId] }),
    index("comment_threads_open_idx").on(t.documentId, t.status),
  ],
);
