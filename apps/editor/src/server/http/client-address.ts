import { env } from "@/env";

/** Set by server.mjs on every request: the address of the socket it came on (a client cannot choose it). */
export const SOCKET_ADDRESS_HEADER = "x-coauthor-socket-address";
/** Set by server.mjs on every request: "1" when it carried a proxy's forwarding header, else "0". */
export const RELAYED_HEADER = "x-coauthor-relayed";

/**
 * The client's address as far as the operator trusts the path to us (TRUST_PROXY = the number of
 * proxies in front of the app). With 0 (the default) it is the socket's address and
 * X-Forwarded-For is ignored: anyone can write that header. With n, the n-th address from the
 * right of socket + X-Forwarded-For: each trusted proxy appended the address it saw, and anything
 * further left came from the client.
 */
export function clientAddress(headers: Headers, trustedProxies = env.TRUST_PROXY): string {
  const socket = headers.get(SOCKET_ADDRESS_HEADER) || "unknown";
  if (trustedProxies === 0) return socket;
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((address) => address.trim())
    .filter((address) => address.length > 0);
  const nearestFirst = [socket, ...forwarded.reverse()];
  return nearestFirst[Math.min(trustedProxies, nearestFirst.length - 1)] ?? socket;
}
