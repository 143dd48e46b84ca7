import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { AUTH_COOKIE_PREFIX } from "@/server/auth/cookie";

const PUBLIC_PAGES = new Set(["/sign-in", "/sign-up"]);

/**
 * Pages need a signed-in user: without a session cookie the browser goes to
 * the sign-in page. This is only the cheap first check; each page verifies
 * the session against the database, and API routes answer 401 themselves.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PAGES.has(pathname)) return NextResponse.next();
  if (getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX })) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = `?next=${encodeURIComponent(`${pathname}${search}`)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: not the API (its routes answer 401 themselves, and a proxy hop on every tool
  // callback costs time), nor the workflow engine's endpoints, Next internals or static files.
  matcher: ["/((?!api/|_next/|\\.well-known/|favicon.ico).*)"],
};
