import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { RELAYED_HEADER, SOCKET_ADDRESS_HEADER } from "@/server/http/client-address";

/** Why a scrape is refused, or null when it may read the metrics. */
export type MetricsRefusal = { status: 401 | 403; code: string; message: string } | null;

/** Whether `address` (as Node reports a socket's) is this machine: 127.0.0.0/8 or ::1, also IPv4-mapped. */
export function isLoopback(address: string): boolean {
  const bare = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may scrape the metrics. With METRICS_TOKEN set: a request carrying it as a bearer token, from
 * anywhere (and nobody without it). Without: requests from this machine only (the socket's
 * address is loopback, and no proxy relayed it), so a default install never shows its figures
 * to the network.
 */
export function metricsRefusal(headers: Headers, token: string | undefined): MetricsRefusal {
  if (token !== undefined) {
    const authorization = headers.get("authorization") ?? "";
    const [scheme, given, ...rest] = authorization.split(" ");
    if (scheme?.toLowerCase() === "bearer" && given && rest.length === 0 && sameToken(given, token))
      return null;
    return {
      status: 401,
      code: "unauthorized:metrics",
      message: "a bearer token (METRICS_TOKEN) is required",
    };
  }
  // A request through a proxy on this machine comes from loopback too, but its client is elsewhere
  // (server.mjs saw a forwarding header; Next adds X-Forwarded-For itself, so it is read there).
  const relayed = headers.get(RELAYED_HEADER) !== "0";
  if (!relayed && isLoopback(headers.get(SOCKET_ADDRESS_HEADER) ?? "")) return null;
  return {
    status: 403,
    code: "forbidden:metrics",
    message: "metrics are served to this machine only unless METRICS_TOKEN is set",
  };
}
