import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { returnQuery } from "@/components/auth/return-path";
import { env } from "@/env";
import { AUTH_COOKIE_PREFIX } from "@/server/auth/cookie";
import {
  createNonce,
  pageContentSecurityPolicy,
  sendsStrictTransportSecurity,
} from "@/server/http/content-security-policy";
import { NON_DOCUMENT_POLICY, STRICT_TRANSPORT_SECURITY } from "@/server/http/security-headers";
import { ENGINE_ROUTE_PREFIX, engineRefusal, isEngineDelivery } from "@/server/workflow/engine-delivery";

// Signed-out pages: signing in or up, and asking for / using a password-reset link.
const PUBLIC_PAGES = new Set(["/sign-in", "/sign-up", "/forgot-password", "/reset-password"]);

/**
 * Two gates in front of the routes, and the pages' script policy:
 * - the workflow engine's endpoints answer only the engine (see server/workflow/engine-delivery):
 *   anything else gets 401 before the engine's handler runs, and changes nothing;
 * - pages need a signed-in user: without a session cookie the browser goes to the sign-in page.
 *   This is only the cheap first check; each page verifies the session against the database, and
 *   API routes answer 401 themselves;
 * - every page gets a Content-Security-Policy with a nonce of its own. It goes on the request too:
 *   Next reads the nonce from the request's CSP and puts it on the scripts it renders.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith(ENGINE_ROUTE_PREFIX)) {
    if (isEngineDelivery(request.headers))
      return withSecurityHeaders(NextResponse.next(), NON_DOCUMENT_POLICY);
    return withSecurityHeaders(engineRefusal(), NON_DOCUMENT_POLICY);
  }
  if (PUBLIC_PAGES.has(pathname) || getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX })) {
    return page(request);
  }
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = returnQuery(`${pathname}${search}`);
  return withSecurityHeaders(NextResponse.redirect(url), NON_DOCUMENT_POLICY);
}

/** Passes a page request on with this response's CSP (and its nonce) on the request and the response. */
function page(request: NextRequest): NextResponse {
  const policy = pageContentSecurityPolicy({
    nonce: createNonce(),
    host: request.headers.get("host"),
    development: env.NODE_ENV === "development",
  });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), policy);
}

/** Sets the response's CSP, and HSTS when the app is served over HTTPS. */
function withSecurityHeaders<T extends Response>(response: T, policy: string): T {
  response.headers.set("content-security-policy", policy);
  if (sendsStrictTransportSecurity())
    response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  return response;
}

export const config = {
  // Pages, and the workflow engine's endpoints. Not the API (its routes answer 401 themselves, and
  // a proxy hop on every tool callback costs time), nor other .well-known files, Next internals or
  // static files. The engine's check reads headers only: its request body reaches the handler whole.
  matcher: ["/((?!api/|_next/|\\.well-known/|favicon.ico).*)", "/.well-known/workflow/:path*"],
};
