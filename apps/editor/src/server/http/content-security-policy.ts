import { env } from "@/env";
import { allowedOrigins } from "@/server/http/same-origin";

/** A fresh nonce (128 random bits, base64) for one response's scripts. */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

interface PolicyOptions {
  /** This response's nonce; Next finds it in the request's CSP and puts it on its own scripts. */
  nonce: string;
  /** The Host the request named: the sync socket lives on the app's own host (`/collab`). */
  host: string | null;
  /** `next dev` evaluates its modules with eval() and injects CSS as <style> elements. */
  development?: boolean;
}

/** The Content-Security-Policy of a page (HTML) response. */
export function pageContentSecurityPolicy({ nonce, host, development = false }: PolicyOptions): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    // 'strict-dynamic': scripts Next's nonced scripts load (its chunks) are trusted too; hosts and
    // 'self' are then ignored by browsers that know it, so only nonced scripts start anything.
    [
      "script-src",
      "'self'",
      `'nonce-${nonce}'`,
      "'strict-dynamic'",
      ...(development ? ["'unsafe-eval'"] : []),
    ],
    // Stylesheets come from the app ('self'). No 'unsafe-inline': Lexical, its collaboration
    // cursors and React set inline styles through the CSSOM (element.style…, style.cssText),
    // which CSP does not govern, and the server renders no style attribute (the browser suite
    // records any style violation). Next puts the nonce on the <style> elements it renders.
    ["style-src", "'self'", `'nonce-${nonce}'`, ...(development ? ["'unsafe-inline'"] : [])],
    ["connect-src", "'self'", ...syncSocketOrigins(host)],
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  return directives.map((parts) => parts.join(" ")).join("; ");
}

// host[:port] with a name or an IPv4 address, or a bracketed IPv6 address.
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The WebSocket origins of the app's own host. 'self' covers same-host ws:/wss: in current
 * browsers (CSP 3), but not in older ones, so the host is named. wss: always (behind a proxy that
 * ends TLS the app sees http while the browser is on https), ws: only where the app is plain
 * http. A Host that is not a plain host[:port] is left out rather than written into the header.
 */
function syncSocketOrigins(host: string | null): string[] {
  const plainHost = host !== null && PLAIN_HOST.test(host) ? host : null;
  const sockets = new Set<string>();
  for (const origin of allowedOrigins(plainHost)) {
    const url = new URL(origin);
    sockets.add(`wss://${url.host}`);
    if (url.protocol === "http:") sockets.add(`ws://${url.host}`);
  }
  return [...sockets];
}

/** Whether responses carry HSTS: only when the app is served over HTTPS (SECURE_COOKIES). */
export function sendsStrictTransportSecurity(): boolean {
  return env.SECURE_COOKIES === "true";
}
