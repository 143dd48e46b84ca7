import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type DocumentAccess, type DocumentRole, roleAllows } from "./auth/roles";
import { getDb } from "./db";
import { documentMembers, documents, runs } from "./db/schema";

/** The role `userId` has on a document row joined with their membership, if any. */
export const roleOf = (userId: string) =>
  sql<DocumentRole>`case when ${documents.ownerId} = ${userId} then 'owner' else ${documentMembers.role} end`;

/** Owned by the user, or shared with them (the membership join matched). */
export const visibleTo = (userId: string) =>
  or(eq(documents.ownerId, userId), isNotNull(documentMembers.userId));

export const membershipOf = (userId: string) =>
  and(eq(documentMembers.documentId, documents.id), eq(documentMembers.userId, userId));

/**
 * The user's access to a document: its owner and their role, when they may
 * open it (owner or member), else null; and whether it is damaged (a run is
 * refused then). Never loads the content: every write and every run checks this.
 */
export async function findDocumentAccess(userId: string, documentId: string) {
  const db = await getDb();
  const [row] = await db
    .select({
      id: documents.id,
      ownerId: documents.ownerId,
      role: roleOf(userId),
      damagedAt: documents.damagedAt,
    })
    .from(documents)
    .leftJoin(documentMembers, membershipOf(userId))
    .where(and(eq(documents.id, documentId), visibleTo(userId)));
  return row ?? null;
}

/** Whether `access` allows `need` (`owner`: only the owner), and if not, why. */
export function accessRefusal(access: { role: DocumentRole }, need: DocumentAccess | "owner"): string | null {
  const allowed = need === "owner" ? access.role === "owner" : roleAllows(access.role, need);
  if (allowed) return null;
  return need === "owner" ? "only the owner can do this" : `a ${access.role} cannot ${need} this document`;
}

/** The document's title and the user's role on it, if they may open it (owner or member), else null. */
export async function findAccessibleDocument(userId: string, documentId: string) {
  const db = await getDb();
  const [row] = await db
    .select({
      id: documents.id,
      title: documents.title,
      updatedAt: documents.updatedAt,
      role: roleOf(userId),
    })
    .from(documents)
    .leftJoin(documentMembers, membershipOf(userId))
    .where(and(eq(documents.id, documentId), visibleTo(userId)));
  return row ?? null;
}

/**
 * A run, with the user's role on the run's document (null when they may not
 * open it), in one query and without loading the document's content.
 */
export async function findRunWithRole(runId: string, userId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ run: runs, role: roleOf(userId) })
    .from(runs)
    .innerJoin(documents, eq(documents.id, runs.documentId))
    .leftJoin(documentMembers, membershipOf(userId))
    .where(eq(runs.id, runId));
  return row ? { run: row.run, role: row.role ?? null } : null;
}

/**
 * The owner, or a member with the editor role — checked in the same statement as the write. The
 * user is an id, or a column of the statement (a run's writer).
 */
export function editableBy(userId: string | AnyPgColumn) {
  return or(
    eq(documents.ownerId, userId),
    sql`exists (select 1 from ${documentMembers} where ${documentMembers.documentId} = ${documents.id} and ${documentMembers.userId} = ${userId} and ${documentMembers.role} = 'editor')`,
  );
}

/** Renames a document if the user may edit it; false otherwise. */
export async function renameDocument(userId: string, documentId: string, title: string) {
  const db = await getDb();
  const rows = await db
    .update(documents)
    .set({ title, updatedAt: new Date(), lastEditedBy: userId })
    .where(and(eq(documents.id, documentId), editableBy(userId)))
    .returning({ id: documents.id });
  return rows.length > 0;
}
