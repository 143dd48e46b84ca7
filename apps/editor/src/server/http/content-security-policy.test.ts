import { describe, expect, it } from "vitest";
import { createNonce, pageContentSecurityPolicy } from "./content-security-policy";

const directive = (policy: string, name: string) =>
  policy
    .split("; ")
    .find((part) => part.startsWith(`${name} `))
    ?.split(" ")
    .slice(1);

describe("pageContentSecurityPolicy", () => {
  it("allows scripts only by this response's nonce, without eval or inline code in production", () => {
    const policy = pageContentSecurityPolicy({ nonce: "abc123==", host: "docs.example:3000" });
    expect(directive(policy, "script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(policy).not.toContain("unsafe-");
  });

  it("allows eval (and injected styles) only for next dev", () => {
    const policy = pageContentSecurityPolicy({ nonce: "n", host: "localhost:3000", development: true });
    expect(directive(policy, "script-src")).toContain("'unsafe-eval'");
    expect(directive(policy, "style-src")).toContain("'unsafe-inline'");
  });

  it("lets the page open the sync socket on its own host only", () => {
    const policy = pageContentSecurityPolicy({ nonce: "n", host: "docs.example:3000" });
    expect(directive(policy, "connect-src")).toEqual([
      "'self'",
      "wss://docs.example:3000",
      "ws://docs.example:3000",
    ]);
  });

  it("writes no Host into the header that is not a plain host[:port]", () => {
    for (const host of ["evil; script-src *", "a b", "x.example/path", "[::1", ""]) {
      const policy = pageContentSecurityPolicy({ nonce: "n", host });
      expect(directive(policy, "connect-src"), host).toEqual(["'self'"]);
      expect(policy.split("; ").filter((part) => part.startsWith("script-src"))).toHaveLength(1);
    }
    expect(directive(pageContentSecurityPolicy({ nonce: "n", host: "[::1]:3000" }), "connect-src")).toContain(
      "ws://[::1]:3000",
    );
  });

  it("forbids plugins, base changes, foreign form targets and framing", () => {
    const policy = pageContentSecurityPolicy({ nonce: "n", host: null });
    expect(directive(policy, "object-src")).toEqual(["'none'"]);
    expect(directive(policy, "base-uri")).toEqual(["'none'"]);
    expect(directive(policy, "form-action")).toEqual(["'self'"]);
    expect(directive(policy, "frame-ancestors")).toEqual(["'none'"]);
  });
});

describe("createNonce", () => {
  it("is 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
