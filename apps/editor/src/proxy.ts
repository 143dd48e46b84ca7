import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { AUTH_COOKIE_PREFIX } from "@/server/auth/cookie";
import { apiError } from "@/server/http/errors";
import { ENGINE_ROUTE_PREFIX, isEngineDelivery } from "@/server/workflow/engine-delivery";

const PUBLIC_PAGES = new Set(["/sign-in", "/sign-up"]);

/**
 * Two gates in front of the routes:
 * - the workflow engine's endpoints answer only the engine (see server/workflow/engine-delivery):
 *   anything else gets 401 before the engine's handler runs, and changes nothing;
 * - pages need a signed-in user: without a session cookie the browser goes to the sign-in page.
 *   This is only the cheap first check; each page verifies the session against the database, and
 *   API routes answer 401 themselves.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith(ENGINE_ROUTE_PREFIX)) {
    if (isEngineDelivery(request.headers)) return NextResponse.next();
    return apiError(401, "unauthorized:engine", "only the workflow engine may call this route");
  }
  if (PUBLIC_PAGES.has(pathname)) return NextResponse.next();
  if (getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX })) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = `?next=${encodeURIComponent(`${pathname}${search}`)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Pages, and the workflow engine's endpoints. Not the API (its routes answer 401 themselves, and
  // a proxy hop on every tool callback costs time), nor other .well-known files, Next internals or
  // static files. The engine's check reads headers only: its request body reaches the handler whole.
  matcher: ["/((?!api/|_next/|\\.well-known/|favicon.ico).*)", "/.well-known/workflow/:path*"],
};
