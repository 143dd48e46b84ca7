import { describe, expect, it } from "vitest";
import { readEnv } from "./env.ts";

const TOKEN = `coa_${"a".repeat(43)}`;

describe("readEnv", () => {
  it("takes the app's address (without a trailing slash) and the token", () => {
    expect(readEnv({ COAUTHOR_URL: "https://docs.example.com/", COAUTHOR_TOKEN: TOKEN })).toEqual({
      ok: true,
      env: { url: "https://docs.example.com", token: TOKEN },
    });
  });

  it("names each variable that is missing or wrong", () => {
    expect(readEnv({})).toEqual({ ok: false, message: "COAUTHOR_URL is not set; COAUTHOR_TOKEN is not set" });
    const wrong = readEnv({ COAUTHOR_URL: "ftp://example.com", COAUTHOR_TOKEN: "secret" });
    expect(wrong).toEqual({
      ok: false,
      message: "COAUTHOR_URL: not an http(s) address; COAUTHOR_TOKEN: not an access token",
    });
  });
});
