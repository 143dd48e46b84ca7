import { describe, expect, it } from "vitest";
import { clientAddress, SOCKET_ADDRESS_HEADER } from "./client-address";

const request = (forwardedFor?: string) =>
  new Headers({
    [SOCKET_ADDRESS_HEADER]: "10.0.0.2",
    ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
  });

describe("clientAddress", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(request("203.0.113.7"), 0)).toBe("10.0.0.2");
    expect(clientAddress(request(), 0)).toBe("10.0.0.2");
  });

  it("is the address the one trusted proxy appended, not what the client wrote before it", () => {
    expect(clientAddress(request("198.51.100.1, 203.0.113.7"), 1)).toBe("203.0.113.7");
  });

  it("counts trusted hops from the right", () => {
    expect(clientAddress(request("198.51.100.1, 203.0.113.7, 10.0.0.1"), 2)).toBe("203.0.113.7");
  });

  it("falls back to the furthest address known when there are fewer hops than trusted", () => {
    expect(clientAddress(request(), 1)).toBe("10.0.0.2");
    expect(clientAddress(request("203.0.113.7"), 3)).toBe("203.0.113.7");
  });

  it("is 'unknown' without the socket header (a server other than server.mjs)", () => {
    expect(clientAddress(new Headers(), 0)).toBe("unknown");
  });
});
