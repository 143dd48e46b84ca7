import { describe, expect, it } from "vitest";
import { MAX_RETURN_PATH_CHARS, returnQuery, safeReturnPath } from "./return-path";

describe("the return path after signing in", () => {
  it("keeps a path on this site", () => {
    expect(safeReturnPath("/documents/abc?x=1")).toBe("/documents/abc?x=1");
  });

  it("falls back to home for anything that could leave the site", () => {
    for (const next of [
      undefined,
      "",
      "https://evil.test",
      "//evil.test",
      "/\\evil.test",
      "javascript:alert(1)",
      // Browsers drop tabs and line breaks from URLs, and read "\" as "/".
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\t\\evil.example",
      "/ /evil.example\u0000",
      "///evil.example",
      "/\u007f/evil.example",
    ]) {
      expect(safeReturnPath(next)).toBe("/");
    }
  });

  it("carries a return path into the sign-in redirect only up to a length a Location header can hold", () => {
    expect(returnQuery("/documents/abc?x=1")).toBe("?next=%2Fdocuments%2Fabc%3Fx%3D1");
    const long = `/documents/${"x".repeat(MAX_RETURN_PATH_CHARS)}`;
    expect(returnQuery(long)).toBe("");
    // Encoding counts: 700 "é" are 4,200 characters once percent-encoded.
    expect(returnQuery(`/${"é".repeat(700)}`)).toBe("");
    expect(safeReturnPath(long)).toBe("/");
  });
});
