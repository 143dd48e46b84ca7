import { describe, expect, it } from "vitest";
import { RELAYED_HEADER, SOCKET_ADDRESS_HEADER } from "@/server/http/client-address";
import { isLoopback, metricsRefusal } from "./metrics-access";

const TOKEN = "metrics-token-0123456789abcdefghijklmnop";
const from = (address: string, more: Record<string, string> = {}) =>
  new Headers({ [SOCKET_ADDRESS_HEADER]: address, [RELAYED_HEADER]: "0", ...more });

describe("metrics access", () => {
  it("knows loopback addresses, IPv4-mapped ones included", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"])
      expect(isLoopback(address)).toBe(true);
    for (const address of [
      "10.0.0.2",
      "::ffff:10.0.0.2",
      "192.168.1.1",
      "2001:db8::1",
      "",
      "unknown",
      "127.0.0.1.example",
    ])
      expect(isLoopback(address)).toBe(false);
  });

  it("without a token, serves this machine only, and not what a proxy relayed", () => {
    expect(metricsRefusal(from("127.0.0.1"), undefined)).toBeNull();
    expect(metricsRefusal(from("::1"), undefined)).toBeNull();
    expect(metricsRefusal(from("203.0.113.7"), undefined)?.status).toBe(403);
    expect(metricsRefusal(new Headers(), undefined)?.status).toBe(403);
    expect(metricsRefusal(from("127.0.0.1", { [RELAYED_HEADER]: "1" }), undefined)?.status).toBe(403);
    // Without server.mjs's word on it, a request counts as relayed.
    expect(metricsRefusal(new Headers({ [SOCKET_ADDRESS_HEADER]: "127.0.0.1" }), undefined)?.status).toBe(
      403,
    );
  });

  it("with a token, serves its bearer from anywhere and nobody else, loopback included", () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(metricsRefusal(from("203.0.113.7", bearer), TOKEN)).toBeNull();
    expect(metricsRefusal(from("127.0.0.1", { authorization: `bearer ${TOKEN}` }), TOKEN)).toBeNull();
    expect(metricsRefusal(from("127.0.0.1"), TOKEN)?.status).toBe(401);
    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer ${TOKEN} x`,
      "Bearer ",
    ])
      expect(metricsRefusal(from("127.0.0.1", { authorization }), TOKEN)?.status).toBe(401);
  });
});
