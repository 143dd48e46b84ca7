import { describe, expect, it } from "vitest";
import { conversationInputSchema, documentListInputSchema, runLogInputSchema } from "./documents.ts";

describe("documents.list input", () => {
  it("defaults to the first page, last edited first", () => {
    expect(documentListInputSchema.parse(undefined)).toEqual({ sort: "edited", cursor: 0 });
    expect(documentListInputSchema.parse({})).toEqual({ sort: "edited", cursor: 0 });
  });

  it("trims the search and keeps what a writer types", () => {
    expect(documentListInputSchema.parse({ query: "  50% off_now  ", sort: "title", cursor: 50 })).toEqual({
      query: "50% off_now",
      sort: "title",
      cursor: 50,
    });
  });

  it.each([
    ["a search over 200 characters", { query: "a".repeat(201) }],
    ["a tab", { query: "a\tb" }],
    ["a newline", { query: "a\nb" }],
    ["NUL", { query: "\u0000" }],
    ["DEL", { query: "\u007f" }],
    ["a C1 control", { query: "\u0085" }],
    ["an unknown order", { sort: "newest" }],
    ["a negative page", { cursor: -50 }],
    ["a fractional page", { cursor: 0.5 }],
    ["an unknown key", { limit: 1000 }],
  ])("refuses %s", (_, input) => {
    expect(documentListInputSchema.safeParse(input).success).toBe(false);
  });
});

describe("run log and conversation inputs", () => {
  it("take an id and nothing else", () => {
    expect(runLogInputSchema.parse({ runId: "wrun_1" })).toEqual({ runId: "wrun_1" });
    expect(conversationInputSchema.parse({ documentId: "d1" })).toEqual({ documentId: "d1" });
    for (const bad of [
      { runId: "" },
      { runId: "a".repeat(201) },
      { runId: "a\u0000" },
      { runId: "x", more: 1 },
    ])
      expect(runLogInputSchema.safeParse(bad).success).toBe(false);
    expect(conversationInputSchema.safeParse({ documentId: "" }).success).toBe(false);
  });
});
