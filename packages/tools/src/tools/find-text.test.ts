import { describe } from "vitest";
import { fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "findText finds plain text in every block and list item with offsets",
    tool: "findText",
    input: () => ({ query: "one" }),
    output: (i, _after, items) => ({
      ok: true,
      truncated: false,
      matches: [
        { blockId: items[0] ?? "", start: 0, end: 3, text: "one" },
        { blockId: i[4] ?? "", start: 5, end: 8, text: "one" },
        { blockId: i[4] ?? "", start: 10, end: 13, text: "one" },
      ],
    }),
  },
  {
    name: "findText with a regex and case-insensitive matching",
    tool: "findText",
    input: () => ({
      query: "\\bt\\w+",
      regex: true,
      caseSensitive: false,
      blockId: undefined,
      maxResults: 2,
    }),
    output: (i) => ({
      ok: true,
      truncated: true,
      matches: [
        { blockId: i[0] ?? "", start: 0, end: 5, text: "Title" },
        { blockId: i[1] ?? "", start: 26, end: 30, text: "text" },
      ],
    }),
  },
  {
    name: "findText limited to one block",
    tool: "findText",
    input: (i) => ({ query: "one", blockId: i[4] }),
    output: (i) => ({
      ok: true,
      truncated: false,
      matches: [
        { blockId: i[4] ?? "", start: 5, end: 8, text: "one" },
        { blockId: i[4] ?? "", start: 10, end: 13, text: "one" },
      ],
    }),
  },
  {
    name: "findText reports no matches as an empty list",
    tool: "findText",
    input: () => ({ query: "zebra" }),
    output: { ok: true, truncated: false, matches: [] },
  },
  {
    name: "findText counts offsets across formatting",
    tool: "findText",
    input: () => ({ query: "with bold" }),
    output: (i) => ({
      ok: true,
      truncated: false,
      matches: [{ blockId: i[1] ?? "", start: 16, end: 25, text: "with bold" }],
    }),
  },
];

const rejects: ToolCase[] = [
  {
    name: "findText with nested quantifiers",
    tool: "findText",
    input: () => ({ query: "(a+)+b", regex: true }),
    output: fail("unsafe-regex", "nested"),
  },
  {
    name: "findText with a backreference",
    tool: "findText",
    input: () => ({ query: "(a)\\1", regex: true }),
    output: fail("unsafe-regex", "backreference"),
  },
  {
    name: "findText with adjacent unbounded quantifiers",
    tool: "findText",
    input: () => ({ query: ".*.*x", regex: true }),
    output: fail("unsafe-regex", "in a row"),
  },
  {
    name: "findText with an invalid regex",
    tool: "findText",
    input: () => ({ query: "a[", regex: true }),
    output: fail("unsafe-regex"),
  },
  {
    name: "findText in an unknown block",
    tool: "findText",
    input: () => ({ query: "a", blockId: "bmissing0" }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "findText with an empty query",
    tool: "findText",
    input: () => ({ query: "" }),
    output: fail("invalid-input", "query"),
  },
];

describe("findText", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
