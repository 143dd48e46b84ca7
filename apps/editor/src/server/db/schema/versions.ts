import { bigint, bigserial, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { userRef, users } from "./auth";
import { bytea, createdAt } from "./columns";
import { documentRef } from "./documents";
import { runs } from "./runs";

// Versions of a document: each a full Yjs state (`encodeStateAsUpdate`), so it reads with garbage
// collection on for the live document (a `Y.snapshot` would need it off in every copy, for good).
// They go with their document. `kind` says why it was taken: "named" by a writer (Save version),
// "run-before" / "run-after" around an agent run, "restore-before" just before a restore, "edits"
// after a pause in people's editing (collab/edit-versions.ts), "repair-before" the state a load
// repaired (content stored before the content rule, collab/stored-state.ts).
export const documentVersions = pgTable(
  "document_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    documentId: documentRef("document_id"),
    kind: text("kind", {
      enum: ["named", "run-before", "run-after", "restore-before", "edits", "repair-before"],
    }).notNull(),
    /** What the list shows: the writer's name for it, or what took it ("Before Coauthor's run …"). */
    label: text("label").notNull(),
    state: bytea("state").notNull(),
    /** Who saved it, or whose run or restore it was taken for (null once they left). */
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    /** The people (user ids) who changed the document since the version before (null: taken before this was kept). */
    editedBy: jsonb("edited_by").$type<string[]>(),
    /** The last `document_editors.edit_seq` it named: the next version names those edited after (null: none yet). */
    editorsSeq: bigint("editors_seq", { mode: "number" }),
    /** The agent run it was taken around, if any (kept when the run's log is purged). */
    runId: text("run_id").references(() => runs.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("document_versions_document_idx").on(t.documentId, t.id)],
);

// Who changed each document (a row per person, written by every instance:
// collab/version-editors.ts), so a version taken on any instance names the people who changed the
// document since the version before — also through a socket on another instance. `edit_seq` is
// taken from one sequence at each person's latest write: a version names the rows past the one its
// predecessor named last (a sequence, not a clock: two writes in one millisecond stay ordered).
export const documentEditors = pgTable(
  "document_editors",
  {
    documentId: documentRef("document_id"),
    userId: userRef("user_id"),
    editSeq: bigserial("edit_seq", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] })],
);
