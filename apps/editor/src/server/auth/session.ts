import { randomUUID } from "node:crypto";
import { signingKeys } from "@coauthor/agent-workflow";
import { jwtVerify, SignJWT } from "jose";
import { env } from "@/env";

export const SESSION_COOKIE = "coauthor_session";
const AUDIENCE = "coauthor:session";
const MAX_AGE_SECONDS = 60 * 60 * 24 * 365;

/** Who the request is from. */
export interface Session {
  userId: string;
}

/** Signs a session for `userId` (HS256, pinned). */
export async function signSession(userId: string): Promise<string> {
  return new SignJWT({ sub: userId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setAudience(AUDIENCE)
    .setExpirationTime(`${MAX_AGE_SECONDS}s`)
    .sign(signingKeys().session);
}

/** Verifies a session cookie value; null when missing, forged or expired. */
export async function verifySession(token: string | undefined): Promise<Session | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, signingKeys().session, {
      algorithms: ["HS256"],
      audience: AUDIENCE,
    });
    return typeof payload.sub === "string" ? { userId: payload.sub } : null;
  } catch {
    // A bad cookie is simply no session; the proxy issues a fresh one.
    return null;
  }
}

/** Reads the session from a request's cookies. */
export function sessionFromRequest(request: Request): Promise<Session | null> {
  const cookie = request.headers.get("cookie") ?? "";
  const match = cookie.split(/;\s*/).find((part) => part.startsWith(`${SESSION_COOKIE}=`));
  return verifySession(match?.slice(SESSION_COOKIE.length + 1));
}

/** A fresh local user id for a first visit. */
export function newUserId(): string {
  return `u_${randomUUID()}`;
}

/** Cookie attributes for the session cookie. */
export function sessionCookieOptions() {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: env.SECURE_COOKIES === "true",
    maxAge: MAX_AGE_SECONDS,
  };
}
