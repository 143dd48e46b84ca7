import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { getDb } from "@/server/db";
import { damagedDocumentCopies, documents, documentUpdates, documentVersions } from "@/server/db/schema";
import { READ_BUDGET_MS, runDocumentWork } from "@/server/document-work/worker-pool";
import { StateLoadError, stateLoads } from "./document-health";

/** Why a restore changed nothing. */
export type RestoreRefusal = "missing" | "not-damaged" | "nothing-to-restore";

/**
 * A state a damaged document can go back to: one of its versions that reads, or (`versionId`
 * null) the last good state the sync server kept as the document last opened cleanly.
 */
export interface GoodState {
  versionId: number | null;
  /** The version's label; null for the kept state. */
  label: string | null;
  at: Date;
  state: Uint8Array;
}

/** What `restoreLastGood` did: restored the state of `at`, or refused. */
export type RestoreOutcome = { ok: true; at: Date } | { ok: false; refusal: RestoreRefusal };

/**
 * How many of the newest versions are tried, newest first, for one that reads: versions taken of a
 * copy that already held the damage do not, and each try is one headless load in a worker.
 */
const VERSIONS_TRIED = 10;

/**
 * The newest state the document can go back to: the newest version newer than the kept last good
 * state that reads, else the kept state; null when neither exists. `versionId` names a version
 * instead (null when the document has no such version or it does not read).
 */
export async function lastGoodState(documentId: string, versionId?: number): Promise<GoodState | null> {
  const db = await getDb();
  const [row] = await db
    .select({ lastGood: documents.lastGoodSnapshot, lastGoodAt: documents.lastGoodAt })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (!row) return null;
  const newer =
    versionId !== undefined
      ? eq(documentVersions.id, versionId)
      : row.lastGoodAt
        ? gt(documentVersions.createdAt, row.lastGoodAt)
        : undefined;
  const versions = await db
    .select({
      id: documentVersions.id,
      label: documentVersions.label,
      at: documentVersions.createdAt,
      state: documentVersions.state,
    })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), newer))
    .orderBy(desc(documentVersions.id))
    .limit(VERSIONS_TRIED);
  for (const version of versions) {
    // A version whose check ran out of time (null) is not offered: nobody can say it reads.
    if ((await stateLoads(version.state)) === true) return { ...version, versionId: version.id };
  }
  if (versionId !== undefined || !row.lastGood || !row.lastGoodAt) return null;
  return { versionId: null, label: null, at: row.lastGoodAt, state: row.lastGood };
}

/** The Markdown of a damaged document's last good state (`lastGoodState`), or null when it has none. */
export async function lastGoodMarkdown(documentId: string, versionId?: number): Promise<string | null> {
  const good = await lastGoodState(documentId, versionId);
  if (!good) return null;
  // Off the event loop, like every whole-document export (document-work).
  const exported = await runDocumentWork("exportStateMarkdown", good.state, READ_BUDGET_MS);
  if (!exported.ok) throw new StateLoadError(exported.damage);
  return exported.markdown;
}

/**
 * Replaces a damaged document's state with its last good one (`lastGoodState`: the newest version
 * that reads, the one `versionId` names, or the kept state), in one transaction with the row
 * locked: the damaged snapshot and log are copied, byte for byte, into `damaged_document_copies`
 * (for an operator to inspect; they go with the document), the snapshot becomes the good state and
 * the log is cleared. A document that is not marked damaged is left alone (a restore would throw
 * away edits that load), as is one with nothing to restore.
 */
export async function restoreLastGood(documentId: string, versionId?: number): Promise<RestoreOutcome> {
  // Found (and checked in a worker) before the row is locked: the check can take a second.
  const good = await lastGoodState(documentId, versionId);
  const db = await getDb();
  return db.transaction(async (tx): Promise<RestoreOutcome> => {
    const [row] = await tx
      .select({ snapshot: documents.yjsSnapshot, damagedAt: documents.damagedAt })
      .from(documents)
      .where(eq(documents.id, documentId))
      .for("update");
    if (!row) return { ok: false, refusal: "missing" };
    if (!row.damagedAt) return { ok: false, refusal: "not-damaged" };
    if (!good) return { ok: false, refusal: "nothing-to-restore" };
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
        yjsSnapshot: good.state,
        damagedAt: null,
        updatedAt: new Date(),
        version: sql`${documents.version} + 1`,
      })
      .where(eq(documents.id, documentId));
    await tx.delete(documentUpdates).where(eq(documentUpdates.documentId, documentId));
    return { ok: true, at: good.at };
  });
}
