import { getAuth } from "./auth";

/** Who the request is from. */
export interface Session {
  userId: string;
}

/** The signed-in user of these request headers (session cookie checked against the database), or null. */
export async function sessionFromHeaders(headers: Headers): Promise<Session | null> {
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers });
  return found ? { userId: found.user.id } : null;
}

/** Reads the session from a request's cookies; null when signed out, expired or revoked. */
export function sessionFromRequest(request: Request): Promise<Session | null> {
  return sessionFromHeaders(request.headers);
}
