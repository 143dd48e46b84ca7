import { TRPCError } from "@trpc/server";
import { type DocumentAccess, roleAllows } from "@/server/auth/roles";
import { findAccessibleDocument } from "@/server/documents";

/**
 * The document if the user may do `need` with it. A document they cannot
 * open at all is NOT_FOUND (its existence is not revealed); one they can open
 * but not change this way is FORBIDDEN.
 */
export async function documentFor(userId: string, documentId: string, need: DocumentAccess | "owner") {
  const document = await findAccessibleDocument(userId, documentId);
  if (!document) throw new TRPCError({ code: "NOT_FOUND", message: "document not found" });
  const allowed = need === "owner" ? document.role === "owner" : roleAllows(document.role, need);
  if (!allowed) {
    throw new TRPCError({
      code: "FORBIDDEN",
      message:
        need === "owner" ? "only the owner can do this" : `a ${document.role} cannot ${need} this document`,
    });
  }
  return document;
}
