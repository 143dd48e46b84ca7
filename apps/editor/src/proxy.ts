import { type NextRequest, NextResponse } from "next/server";
import {
  newUserId,
  SESSION_COOKIE,
  sessionCookieOptions,
  signSession,
  verifySession,
} from "@/server/auth/session";

/**
 * Identity for now: every visitor carries a signed session cookie; on the
 * first visit a local user is made (its row is created on first use).
 */
export async function proxy(request: NextRequest) {
  const session = await verifySession(request.cookies.get(SESSION_COOKIE)?.value);
  if (session) return NextResponse.next();
  // Pages get a fresh local user; API calls without a session are refused by the route.
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const token = await signSession(newUserId());
  // Forward the new cookie to this very request so the page renders for the new user.
  const headers = new Headers(request.headers);
  const others = (request.headers.get("cookie") ?? "")
    .split(/;\s*/)
    .filter((part) => part && !part.startsWith(`${SESSION_COOKIE}=`));
  headers.set("cookie", [...others, `${SESSION_COOKIE}=${token}`].join("; "));
  const response = NextResponse.next({ request: { headers } });
  response.cookies.set(SESSION_COOKIE, token, sessionCookieOptions());
  return response;
}

export const config = {
  // Never the workflow engine's own endpoints, Next internals or static files.
  matcher: ["/((?!_next/|\\.well-known/|favicon.ico).*)"],
};
