import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "./db";
import { documents, users } from "./db/schema";

/** Creates the local user row on first use (the session cookie names it). */
export async function ensureUser(userId: string): Promise<void> {
  const db = await getDb();
  await db.insert(users).values({ id: userId, name: "Local writer" }).onConflictDoNothing();
}

/** The document if `userId` may open it (owner for now), else null. */
export async function findAccessibleDocument(userId: string, documentId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.ownerId, userId)));
  return row ?? null;
}

/** The user's documents, most recently edited first. */
export async function listDocuments(userId: string) {
  const db = await getDb();
  return db
    .select({ id: documents.id, title: documents.title, updatedAt: documents.updatedAt })
    .from(documents)
    .where(eq(documents.ownerId, userId))
    .orderBy(desc(documents.updatedAt));
}

/** Saves editor content; bumps the version. Returns the new version, or null when not allowed. */
export async function saveDocumentContent(userId: string, documentId: string, content: unknown) {
  const db = await getDb();
  const [row] = await db
    .update(documents)
    .set({ content, version: sql`${documents.version} + 1`, updatedAt: new Date() })
    .where(and(eq(documents.id, documentId), eq(documents.ownerId, userId)))
    .returning({ version: documents.version });
  return row?.version ?? null;
}
