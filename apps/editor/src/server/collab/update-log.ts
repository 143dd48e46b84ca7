import { log } from "@coauthor/agent-workflow";
import { yjsUpdateFromMarkdown, yjsUpdateFromState } from "@coauthor/tools";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import * as Y from "yjs";
import { getDb } from "@/server/db";
import { documents, documentUpdates } from "@/server/db/schema";
import { keepLastGood, reportDamage, stateLoads } from "./document-health";

/**
 * Storage of a document's Yjs state: a snapshot on the document row plus the
 * log of updates received since. Appends are one insert per update; the log is
 * folded into the snapshot from storage alone (never from a copy in memory,
 * which on another instance may lag behind), so compaction is safe with any
 * number of app instances.
 */

/** Log length from which `compactUpdateLog` folds the log into the snapshot. */
export const COMPACT_AFTER_UPDATES = 100;

/** Appends one update to the document's log. */
export async function appendUpdate(documentId: string, update: Uint8Array): Promise<void> {
  const db = await getDb();
  await db.insert(documentUpdates).values({ documentId, update });
}

/**
 * The document's Yjs state (snapshot merged with the log), or null when the
 * document does not exist. A document from before collaboration (Lexical JSON
 * in `content`, no snapshot) is converted once, here; whichever instance
 * stores its snapshot first wins and every other one reads that. A database
 * error is thrown, never answered with an empty document; stored bytes Yjs
 * cannot merge are reported as damage (`DocumentDamagedError`). Whether the
 * merged state loads in the editor is the caller's check.
 */
export async function loadDocumentState(documentId: string): Promise<Uint8Array | null> {
  const db = await getDb();
  const [row] = await db
    .select({ snapshot: documents.yjsSnapshot, content: documents.content })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (!row) return null;
  const entries = await db
    .select({ update: documentUpdates.update })
    .from(documentUpdates)
    .where(eq(documentUpdates.documentId, documentId))
    .orderBy(asc(documentUpdates.id));
  let snapshot = row.snapshot;
  if (snapshot === null && entries.length === 0) snapshot = await convertOnce(documentId, row.content);
  const parts = [...(snapshot ? [snapshot] : []), ...entries.map((entry) => entry.update)];
  if (parts.length === 1) return parts[0] as Uint8Array;
  try {
    return Y.mergeUpdates(parts);
  } catch (error) {
    throw await reportDamage(documentId, error);
  }
}

/** Stores the first snapshot of a document that has none (its old JSON content, or one empty paragraph). */
async function convertOnce(documentId: string, content: unknown): Promise<Uint8Array> {
  const db = await getDb();
  // A stored state Lexical cannot parse is damage (reported to the owner), never an empty document.
  let seed: Uint8Array;
  try {
    seed = isEditorState(content) ? yjsUpdateFromState(JSON.stringify(content)) : yjsUpdateFromMarkdown("");
  } catch (error) {
    throw await reportDamage(documentId, error);
  }
  const [stored] = await db
    .update(documents)
    .set({ yjsSnapshot: seed })
    .where(and(eq(documents.id, documentId), isNull(documents.yjsSnapshot)))
    .returning({ snapshot: documents.yjsSnapshot });
  if (stored?.snapshot) return stored.snapshot;
  // Another instance converted it first: use theirs, so every copy starts from one history.
  const [theirs] = await db
    .select({ snapshot: documents.yjsSnapshot })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (!theirs?.snapshot) throw new Error(`document ${documentId} has no Yjs snapshot after conversion`);
  return theirs.snapshot;
}

function isEditorState(value: unknown): value is { root: { type: "root"; children: unknown[] } } {
  if (typeof value !== "object" || value === null || !("root" in value)) return false;
  const root = (value as { root: unknown }).root;
  return typeof root === "object" && root !== null && (root as { type?: unknown }).type === "root";
}

/**
 * Folds the update log into the snapshot when it has grown past
 * `COMPACT_AFTER_UPDATES` (or always, with `force`). Runs in one transaction
 * with the document row locked; only the updates read in it are deleted.
 * The new snapshot becomes the last good state when it loads (checked after
 * the transaction, so appends are not held up by the conversion). Returns how
 * many updates were folded.
 */
export async function compactUpdateLog(documentId: string, force = false): Promise<number> {
  const db = await getDb();
  const compacted = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ snapshot: documents.yjsSnapshot })
      .from(documents)
      .where(eq(documents.id, documentId))
      // Serializes compactions of the document; appends (a foreign-key check: a key-share lock) go on
      // meanwhile, and those that commit after the read below stay in the log (see the delete).
      .for("no key update");
    if (!row) return null;
    const entries = await tx
      .select({ id: documentUpdates.id, update: documentUpdates.update })
      .from(documentUpdates)
      .where(eq(documentUpdates.documentId, documentId))
      .orderBy(asc(documentUpdates.id));
    const last = entries.at(-1);
    if (!last || (!force && entries.length < COMPACT_AFTER_UPDATES)) return null;
    const parts = [...(row.snapshot ? [row.snapshot] : []), ...entries.map((entry) => entry.update)];
    // Re-encoding through a Y.Doc (rather than mergeUpdates) lets Yjs drop deleted content.
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.mergeUpdates(parts));
    const snapshot = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    await tx.update(documents).set({ yjsSnapshot: snapshot }).where(eq(documents.id, documentId));
    // Exactly the rows folded: an append holding a lower id than `last` may commit after the read
    // (ids come from a sequence, taken before commit); it was not folded, so it stays in the log.
    await tx.delete(documentUpdates).where(
      inArray(
        documentUpdates.id,
        entries.map((entry) => entry.id),
      ),
    );
    return { folded: entries.length, snapshot, at: new Date() };
  });
  if (!compacted) return 0;
  const loads = await stateLoads(compacted.snapshot);
  if (loads) await keepLastGood(documentId, compacted.snapshot, compacted.at);
  // Not reported as damage yet: the copy that is open still serves; the next load reports it.
  else if (loads === false)
    log.warn("collab: a compacted state does not load; the last good version stays", { documentId });
  return compacted.folded;
}

/**
 * Marks the document as edited now (the document list is ordered by it), with its current text
 * for search and who edited it, each when known (an update relayed from another instance has no
 * editor here; a state that does not load keeps the previous text).
 */
export async function touchDocument(
  documentId: string,
  edit: { plainText?: string; editorId?: string } = {},
): Promise<void> {
  const db = await getDb();
  await db
    .update(documents)
    .set({
      updatedAt: new Date(),
      version: sql`${documents.version} + 1`,
      ...(edit.plainText === undefined ? {} : { plainText: edit.plainText }),
      ...(edit.editorId === undefined ? {} : { lastEditedBy: edit.editorId }),
    })
    .where(eq(documents.id, documentId));
}
