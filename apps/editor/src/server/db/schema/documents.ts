import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { userRef, users } from "./auth";
import { bytea, createdAt, timestamps } from "./columns";

// Documents: their Yjs state, update log, damage copies and members.

/** A required reference to a document; rows go when it goes. */
export const documentRef = (name: string) =>
  text(name)
    .notNull()
    .references(() => documents.id, { onDelete: "cascade" });

// The Yjs document is the content: `yjs_snapshot` (a compacted Yjs update) plus
// the rows of `document_updates` newer than it. `content` is the Lexical JSON of
// documents saved before collaboration; it is converted into a snapshot once, on
// first load, and never written again. `last_good_snapshot` is the latest state
// that loaded and converted cleanly (kept at creation and compaction,
// src/server/collab/last-good.ts); `damaged_at` is set while the stored state
// fails to load, until the owner restores the last good one.
export const documents = pgTable(
  "documents",
  {
    id: text("id").primaryKey(),
    ownerId: userRef("owner_id"),
    title: text("title").notNull(),
    content: jsonb("content"),
    yjsSnapshot: bytea("yjs_snapshot"),
    lastGoodSnapshot: bytea("last_good_snapshot"),
    lastGoodAt: timestamp("last_good_at", { withTimezone: true }),
    damagedAt: timestamp("damaged_at", { withTimezone: true }),
    version: integer("version").notNull().default(0),
    /**
     * The document's text without formatting, derived from its Yjs state whenever the sync server
     * stores it (and at creation): what the home page searches and its snippet. Never read back
     * into the document.
     */
    plainText: text("plain_text").notNull().default(""),
    /** Who last changed the content or the title (null: nobody since this column exists, or they left). */
    lastEditedBy: text("last_edited_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("documents_owner_idx").on(t.ownerId, t.updatedAt)],
);

// The update log: every Yjs update the sync server receives, appended as it
// arrives (so a crash loses nothing received); folded into the snapshot from
// time to time (src/server/collab/update-log.ts).
export const documentUpdates = pgTable(
  "document_updates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    documentId: documentRef("document_id"),
    update: bytea("update").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("document_updates_document_idx").on(t.documentId, t.id)],
);

// The stored state a restore replaced (the damaged snapshot and log, exactly as they were), for an
// operator to inspect; it goes with its document.
export const damagedDocumentCopies = pgTable(
  "damaged_document_copies",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    documentId: documentRef("document_id"),
    snapshot: bytea("snapshot"),
    /** The update log's entries, oldest first, each base64-encoded. */
    updates: jsonb("updates").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("damaged_document_copies_document_idx").on(t.documentId)],
);

// Who else may open a document, and how: "editor" (edit, run the agent), "commenter" (read,
// chat, comment) or "viewer" (read, chat). The owner is `documents.owner_id`, never a row here.
export const documentMembers = pgTable(
  "document_members",
  {
    documentId: documentRef("document_id"),
    userId: userRef("user_id"),
    role: text("role", { enum: ["editor", "commenter", "viewer"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] }), index("document_members_user_idx").on(t.userId)],
);

// A document shared with an email address that has no verified account yet. It becomes a
// membership only once an account with this email exists AND has verified it (on verification,
// or at sign-in when already verified), so whoever registers the address first gets nothing.
export const documentInvitations = pgTable(
  "document_invitations",
  {
    id: text("id").primaryKey(),
    documentId: documentRef("document_id"),
    // Stored lower-case, as Better Auth stores account emails.
    email: text("email").notNull(),
    role: text("role", { enum: ["editor", "commenter", "viewer"] }).notNull(),
    invitedBy: userRef("invited_by"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("document_invitations_document_email_idx").on(t.documentId, t.email),
    index("document_invitations_email_idx").on(t.email),
  ],
);
