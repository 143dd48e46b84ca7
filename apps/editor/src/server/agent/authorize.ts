import { eq } from "drizzle-orm";
import type { DocumentAccess } from "@/server/auth/roles";
import { sessionFromRequest } from "@/server/auth/session";
import { getDb } from "@/server/db";
import { documents } from "@/server/db/schema";
import { accessRefusal, findDocumentAccess } from "@/server/documents";
import { apiError } from "@/server/http/errors";

/** The session user, or a 401 response. */
export async function requireUser(request: Request, surface: string) {
  const session = await sessionFromRequest(request);
  if (!session)
    return { ok: false as const, response: apiError(401, `unauthorized:${surface}`, "sign in first") };
  return { ok: true as const, userId: session.userId };
}

/**
 * The user's access to a document (owner and role) if they may `need` it
 * (default: edit, the safe choice); otherwise a 404 (missing), or a 403 (not
 * shared with them, or a viewer asking to edit).
 */
export async function requireDocument(userId: string, documentId: string, need: DocumentAccess = "edit") {
  const access = await findDocumentAccess(userId, documentId);
  const refusal = access && accessRefusal(access, need);
  if (access && !refusal) return { ok: true as const, access };
  if (refusal) return { ok: false as const, response: apiError(403, "forbidden:document", refusal) };
  const db = await getDb();
  const [exists] = await db.select({ id: documents.id }).from(documents).where(eq(documents.id, documentId));
  return {
    ok: false as const,
    response: exists
      ? apiError(403, "forbidden:document", "you do not have access to this document")
      : apiError(404, "not_found:document", "document not found"),
  };
}
