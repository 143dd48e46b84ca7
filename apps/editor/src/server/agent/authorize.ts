import { eq } from "drizzle-orm";
import { userOfAccessToken } from "@/server/auth/access-tokens";
import type { DocumentAccess } from "@/server/auth/roles";
import { sessionFromRequest } from "@/server/auth/session";
import { getDb } from "@/server/db";
import { documents } from "@/server/db/schema";
import { accessRefusal, findDocumentAccess } from "@/server/documents";
import { apiError } from "@/server/http/errors";

/** How a request said who it is from. */
export type Caller = "session" | "token";

/** Who the request is from, or the refusal to answer with. */
export type UserCheck = { ok: true; userId: string; caller: Caller } | { ok: false; response: Response };

/**
 * The session user, or a 401 response. With `acceptToken` (the agent route and the read-only run
 * routes, nothing else), a request carrying `Authorization: Bearer <token>` is the token's user
 * instead: a token that is unknown, revoked or expired is a 401 even beside a session cookie.
 */
export async function requireUser(
  request: Request,
  surface: string,
  options: { acceptToken?: boolean } = {},
): Promise<UserCheck> {
  const bearer = options.acceptToken ? bearerToken(request.headers) : null;
  if (bearer !== null) {
    const userId = await userOfAccessToken(bearer);
    if (!userId) {
      const message = "the access token is invalid, expired or revoked";
      return { ok: false, response: apiError(401, `unauthorized:${surface}`, message) };
    }
    return { ok: true, userId, caller: "token" };
  }
  const session = await sessionFromRequest(request);
  if (!session) return { ok: false, response: apiError(401, `unauthorized:${surface}`, "sign in first") };
  return { ok: true, userId: session.userId, caller: "session" };
}

/** The credentials of an `Authorization: Bearer …` header, or null when it has none. */
function bearerToken(headers: Headers): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match?.[1] ?? null;
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
