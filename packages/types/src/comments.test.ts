import { describe, expect, it } from "vitest";
import {
  commentBodySchema,
  countOpenThreads,
  linksIn,
  MAX_COMMENT_CHARS,
  mentionNamesOf,
  mentionsAnyOf,
  mentionsIn,
} from "./comments.ts";

const refused = (body: string) => commentBodySchema.safeParse(body).success === false;

describe("a comment's body", () => {
  it("takes plain text with newlines, tabs, allowed links and mentions", () => {
    expect(
      commentBodySchema.parse("  Is this right?\n\tSee https://example.org/a?b=1 or mailto:a@b.example  "),
    ).toBe("Is this right?\n\tSee https://example.org/a?b=1 or mailto:a@b.example");
    expect(refused("Note:see 10:30, ratio 3:2")).toBe(false);
    expect(refused("x".repeat(MAX_COMMENT_CHARS))).toBe(false);
  });

  it("refuses empty, too long, control characters and links that are not http, https or mailto", () => {
    expect(refused("   ")).toBe(true);
    expect(refused("x".repeat(MAX_COMMENT_CHARS + 1))).toBe(true);
    for (const control of ["\u0000", "\u0007", "\u001b", "\u007f", "\r"])
      expect(refused(`a${control}b`)).toBe(true);
    for (const link of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,x",
      "ftp://example.org",
      "vbscript:x",
    ]) {
      expect(refused(`see ${link}`)).toBe(true);
    }
  });

  it("finds links and mentions as written", () => {
    expect(linksIn("a https://x.example/p, mailto:m@x.example and javascript:void(0)")).toEqual([
      "https://x.example/p,",
      "mailto:m@x.example",
      "javascript:void(0)",
    ]);
    expect(mentionsIn("@Alice and @bob.smith, mail bob@example.org, @Alice again; @Coauthor")).toEqual([
      "Alice",
      "bob.smith",
      "Coauthor",
    ]);
  });
});

describe("mentions of a person", () => {
  it("are their name without spaces, its first word and their email's local part, any case", () => {
    const names = mentionNamesOf({ name: "Bob Stone", email: "rob.s@example.org" });
    expect(names).toEqual(["bobstone", "bob", "rob.s"]);
    for (const body of ["@Bob is this right?", "ask @BOBSTONE", "cc @rob.s", "(@bob)"])
      expect(mentionsAnyOf(body, names)).toBe(true);
    for (const body of ["bob@example.org", "@bobby", "@Stone", "no mention"])
      expect(mentionsAnyOf(body, names)).toBe(false);
  });

  it("count in the open threads only, once per thread", () => {
    const comment = (body: string) => ({
      id: body,
      author: { kind: "person" as const, userId: "a", name: "A" },
      body,
      at: 0,
    });
    const names = mentionNamesOf({ name: "Bob", email: null });
    const threads = [
      { status: "open" as const, comments: [comment("@bob one"), comment("@bob again")] },
      { status: "open" as const, comments: [comment("nobody")] },
      { status: "resolved" as const, comments: [comment("@bob resolved")] },
    ];
    expect(countOpenThreads(threads, names)).toEqual({ open: 2, mentions: 1 });
    expect(countOpenThreads([], names)).toEqual({ open: 0, mentions: 0 });
  });
});
