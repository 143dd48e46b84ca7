import { getDb } from "@/server/db";
import { documentVersions } from "@/server/db/schema";

// Storing a version row, and nothing else: versions.ts takes versions of the live document, and
// the stored-state repair (collab/stored-state.ts) keeps the state it is about to repair; the
// latter sits below the sync server, so it cannot import versions.ts (which edits live documents).

export type VersionRow = Omit<typeof documentVersions.$inferInsert, "id" | "createdAt">;

/** Stores `version`; returns its id. */
export async function insertVersion(version: VersionRow): Promise<number | null> {
  const db = await getDb();
  const [row] = await db.insert(documentVersions).values(version).returning({ id: documentVersions.id });
  return row?.id ?? null;
}
