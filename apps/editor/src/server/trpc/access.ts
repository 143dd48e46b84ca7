import { TRPCError } from "@trpc/server";
import type { DocumentAccess } from "@/server/auth/roles";
import { accessRefusal, findDocumentAccess } from "@/server/documents";

/**
 * The user's access to a document (owner and role) if they may do `need` with
 * it. A document they cannot open at all is NOT_FOUND (its existence is not
 * revealed); one they can open but not change this way is FORBIDDEN.
 */
export async function documentFor(userId: string, documentId: string, need: DocumentAccess | "owner") {
  const access = await findDocumentAccess(userId, documentId);
  if (!access) throw new TRPCError({ code: "NOT_FOUND", message: "document not found" });
  const refusal = accessRefusal(access, need);
  if (refusal) throw new TRPCError({ code: "FORBIDDEN", message: refusal });
  return access;
}
