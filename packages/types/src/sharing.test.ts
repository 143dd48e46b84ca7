import { describe, expect, it } from "vitest";
import { inviteInputSchema, linkUrlSchema } from "./sharing.ts";

describe("link addresses", () => {
  it("accepts http, https and mailto addresses, trimmed", () => {
    expect(linkUrlSchema.parse("  https://example.com/a?b=1 ")).toBe("https://example.com/a?b=1");
    expect(linkUrlSchema.parse("http://example.com")).toBe("http://example.com");
    expect(linkUrlSchema.parse("mailto:someone@example.com")).toBe("mailto:someone@example.com");
  });

  it("refuses scripts, data, other schemes, relative and malformed addresses", () => {
    for (const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:msgbox",
      "ftp://example.com",
      "example.com",
      "/documents/x",
      "https://",
      "",
      `https://example.com/${"a".repeat(2100)}`,
    ])
      expect(linkUrlSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe("invitations", () => {
  it("takes an email and a member role, never owner", () => {
    expect(inviteInputSchema.safeParse({ id: "d1", email: "a@example.test", role: "viewer" }).success).toBe(
      true,
    );
    expect(inviteInputSchema.safeParse({ id: "d1", email: "a@example.test", role: "owner" }).success).toBe(
      false,
    );
    expect(inviteInputSchema.safeParse({ id: "d1", email: "not an email", role: "editor" }).success).toBe(
      false,
    );
  });
});

describe("reset link query", () => {
  it("reads a token, an error, and treats odd values as none", async () => {
    const { resetLinkQuerySchema } = await import("./accounts.ts");
    expect(resetLinkQuerySchema.parse({ token: "abc" })).toEqual({ token: "abc" });
    expect(resetLinkQuerySchema.parse({ error: "INVALID_TOKEN" }).error).toBe("INVALID_TOKEN");
    expect(resetLinkQuerySchema.parse({ token: ["a", "b"] }).token).toBeUndefined();
    expect(resetLinkQuerySchema.parse({ token: "x".repeat(201) }).token).toBeUndefined();
  });
});
