import { and, asc, eq } from "drizzle-orm";
import type { MemberRole } from "./auth/roles";
import { getDb } from "./db";
import { documentMembers, documents, users } from "./db/schema";

/** The owner and the members of a document, owner first. */
export async function listMembers(documentId: string) {
  const db = await getDb();
  const [owner] = await db
    .select({ userId: users.id, name: users.name, email: users.email })
    .from(documents)
    .innerJoin(users, eq(users.id, documents.ownerId))
    .where(eq(documents.id, documentId));
  const members = await db
    .select({ userId: users.id, name: users.name, email: users.email, role: documentMembers.role })
    .from(documentMembers)
    .innerJoin(users, eq(users.id, documentMembers.userId))
    .where(eq(documentMembers.documentId, documentId))
    .orderBy(asc(documentMembers.createdAt));
  return [...(owner ? [{ ...owner, role: "owner" as const }] : []), ...members];
}

/** The user with this email (emails are stored lower-case), or null. */
export async function findUserByEmail(email: string) {
  const db = await getDb();
  const [row] = await db
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  return row ?? null;
}

/** Adds a member or changes their role. */
export async function upsertMember(documentId: string, userId: string, role: MemberRole) {
  const db = await getDb();
  await db
    .insert(documentMembers)
    .values({ documentId, userId, role })
    .onConflictDoUpdate({ target: [documentMembers.documentId, documentMembers.userId], set: { role } });
}

/** Changes an existing member's role; false when they are not a member. */
export async function updateMemberRole(documentId: string, userId: string, role: MemberRole) {
  const db = await getDb();
  const rows = await db
    .update(documentMembers)
    .set({ role })
    .where(and(eq(documentMembers.documentId, documentId), eq(documentMembers.userId, userId)))
    .returning({ userId: documentMembers.userId });
  return rows.length > 0;
}

/** Removes a member; false when they were not one. */
export async function removeMember(documentId: string, userId: string) {
  const db = await getDb();
  const rows = await db
    .delete(documentMembers)
    .where(and(eq(documentMembers.documentId, documentId), eq(documentMembers.userId, userId)))
    .returning({ userId: documentMembers.userId });
  return rows.length > 0;
}
