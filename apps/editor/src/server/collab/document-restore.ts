import { asc, eq, sql } from "drizzle-orm";
import { getDb } from "@/server/db";
import { damagedDocumentCopies, documents, documentUpdates } from "@/server/db/schema";

/** Why a restore changed nothing. */
export type RestoreRefusal = "missing" | "not-damaged" | "nothing-to-restore";

/** What `restoreLastGood` did: restored the state kept at `lastGoodAt`, or refused. */
export type RestoreOutcome = { ok: true; lastGoodAt: Date } | { ok: false; refusal: RestoreRefusal };

/**
 * Replaces a damaged document's state with its last good one, in one transaction with the row
 * locked: the damaged snapshot and log are copied, byte for byte, into `damaged_document_copies`
 * (for an operator to inspect; they go with the document), the snapshot becomes the last good
 * state and the log is cleared. A document that is not marked damaged is left alone (a restore
 * would throw away edits that load), as is one with no last good state.
 */
export async function restoreLastGood(documentId: string): Promise<RestoreOutcome> {
  const db = await getDb();
  return db.transaction(async (tx): Promise<RestoreOutcome> => {
    const [row] = await tx
      .select({
        snapshot: documents.yjsSnapshot,
        lastGood: documents.lastGoodSnapshot,
        lastGoodAt: documents.lastGoodAt,
        damagedAt: documents.damagedAt,
      })
      .from(documents)
      .where(eq(documents.id, documentId))
      .for("update");
    if (!row) return { ok: false, refusal: "missing" };
    if (!row.damagedAt) return { ok: false, refusal: "not-damaged" };
    if (!row.lastGood || !row.lastGoodAt) return { ok: false, refusal: "nothing-to-restore" };
    const log = await tx
      .select({ update: documentUpdates.update })
      .from(documentUpdates)
      .where(eq(documentUpdates.documentId, documentId))
      .orderBy(asc(documentUpdates.id));
    await tx.insert(damagedDocumentCopies).values({
      documentId,
      snapshot: row.snapshot,
      updates: log.map((entry) => Buffer.from(entry.update).toString("base64")),
    });
    await tx
      .update(documents)
      .set({
        yjsSnapshot: row.lastGood,
        damagedAt: null,
        updatedAt: new Date(),
        version: sql`${documents.version} + 1`,
      })
      .where(eq(documents.id, documentId));
    await tx.delete(documentUpdates).where(eq(documentUpdates.documentId, documentId));
    return { ok: true, lastGoodAt: row.lastGoodAt };
  });
}
