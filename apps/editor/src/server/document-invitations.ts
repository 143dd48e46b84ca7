import type { PendingInvitation } from "@coauthor/types";
import { and, asc, eq } from "drizzle-orm";
import type { MemberRole } from "./auth/roles";
import { getDb } from "./db";
import { documentInvitations, documentMembers, documents } from "./db/schema";

/** Emails are compared lower-case and trimmed, as Better Auth stores them. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Records (or re-roles) a pending invitation of `email` to a document. */
export async function upsertInvitation(
  documentId: string,
  email: string,
  role: MemberRole,
  invitedBy: string,
) {
  const db = await getDb();
  const [row] = await db
    .insert(documentInvitations)
    .values({ id: crypto.randomUUID(), documentId, email: normalEmail(email), role, invitedBy })
    .onConflictDoUpdate({
      target: [documentInvitations.documentId, documentInvitations.email],
      set: { role },
    })
    .returning({ id: documentInvitations.id });
  if (!row) throw new Error("invitation was not stored");
  return row.id;
}

/** A document's pending invitations, oldest first. */
export async function listInvitations(documentId: string): Promise<PendingInvitation[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: documentInvitations.id,
      email: documentInvitations.email,
      role: documentInvitations.role,
      createdAt: documentInvitations.createdAt,
    })
    .from(documentInvitations)
    .where(eq(documentInvitations.documentId, documentId))
    .orderBy(asc(documentInvitations.createdAt));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Deletes a pending invitation; false when the document has no such invitation. */
export async function revokeInvitation(documentId: string, invitationId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(documentInvitations)
    .where(and(eq(documentInvitations.documentId, documentId), eq(documentInvitations.id, invitationId)))
    .returning({ id: documentInvitations.id });
  return rows.length > 0;
}

/** The account Better Auth reports (after verification or sign-in). */
export interface AccountUser {
  id: string;
  email: string;
  emailVerified: boolean;
}

/**
 * Turns the pending invitations of the account's email into memberships, in one transaction, and
 * deletes them. Does nothing unless the email is verified: an invitation belongs to whoever
 * controls the address, not to whoever registered it first. An invitation to the account's own
 * document is dropped (the owner has access already); an existing membership keeps its role.
 */
export async function acceptInvitations(user: AccountUser): Promise<number> {
  if (!user.emailVerified) return 0;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const pending = await tx
      .delete(documentInvitations)
      .where(eq(documentInvitations.email, normalEmail(user.email)))
      .returning({ documentId: documentInvitations.documentId, role: documentInvitations.role });
    let accepted = 0;
    for (const invitation of pending) {
      const [document] = await tx
        .select({ ownerId: documents.ownerId })
        .from(documents)
        .where(eq(documents.id, invitation.documentId));
      if (!document || document.ownerId === user.id) continue;
      await tx
        .insert(documentMembers)
        .values({ documentId: invitation.documentId, userId: user.id, role: invitation.role })
        .onConflictDoNothing();
      accepted += 1;
    }
    return accepted;
  });
}
