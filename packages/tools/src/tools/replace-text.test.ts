import { describe } from "vitest";
import { DOC, fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "replaceText replaces every occurrence in the document by default",
    tool: "replaceText",
    input: () => ({ search: "one", replace: "ONE" }),
    output: (i, _a, items) => ({ ok: true, replacements: 3, blockIds: [items[0] ?? "", i[4] ?? ""] }),
    after: DOC.replace("- one", "- ONE").replace("one, one", "ONE, ONE"),
  },
  {
    name: "replaceText with occurrence first replaces only the first match",
    tool: "replaceText",
    input: () => ({ search: "one", replace: "1", occurrence: "first" }),
    output: (_i, _a, items) => ({ ok: true, replacements: 1, blockIds: [items[0] ?? ""] }),
    after: DOC.replace("- one", "- 1"),
  },
  {
    name: "replaceText limited to one block",
    tool: "replaceText",
    input: (i) => ({ search: "one", replace: "two", blockId: i[4] }),
    output: (i) => ({ ok: true, replacements: 2, blockIds: [i[4] ?? ""] }),
    after: DOC.replace("one, one", "two, two"),
  },
  {
    name: "replaceText keeps the formatting of the text node it edits",
    tool: "replaceText",
    input: () => ({ search: "bold", replace: "strong" }),
    output: (i) => ({ ok: true, replacements: 1, blockIds: [i[1] ?? ""] }),
    after: DOC.replace("**bold**", "**strong**"),
  },
  {
    name: "replaceText replaces an occurrence across formatting, in the formatting of its first character",
    markdown: "a**bc**d ab",
    tool: "replaceText",
    input: () => ({ search: "ab", replace: "X" }),
    output: (i) => ({ ok: true, replacements: 2, blockIds: [i[0] ?? ""] }),
    after: "X**c**d X",
  },
  {
    name: "replaceText across a link's edge keeps the link for what is left of it",
    markdown: "see [the docs](https://example.com) now",
    tool: "replaceText",
    input: () => ({ search: "see the", replace: "read our" }),
    output: (i) => ({ ok: true, replacements: 1, blockIds: [i[0] ?? ""] }),
    after: "read our[ docs](https://example.com) now",
  },
  {
    name: "replaceText removes a formatted piece the occurrence covers whole",
    markdown: "one *two* three",
    tool: "replaceText",
    input: () => ({ search: "one two three", replace: "all" }),
    output: (i) => ({ ok: true, replacements: 1, blockIds: [i[0] ?? ""] }),
    after: "all",
  },
  {
    name: "replaceText leaves and reports an occurrence across a line break",
    markdown: "ab\\\nab c",
    tool: "replaceText",
    input: () => ({ search: "b\nab", replace: "X" }),
    output: fail("not-found", "line break"),
  },
  {
    name: "replaceText names list items, as findText does",
    tool: "replaceText",
    input: (i) => ({ search: "o", replace: "0", blockId: i[2] }),
    output: (_i, _a, items) => ({ ok: true, replacements: 2, blockIds: [items[0] ?? "", items[1] ?? ""] }),
    after: DOC.replace("- one\n- two", "- 0ne\n- tw0"),
  },
  {
    name: "replaceText with an empty replacement deletes the text",
    tool: "replaceText",
    input: () => ({ search: " more", replace: "" }),
    output: (i) => ({ ok: true, replacements: 1, blockIds: [i[4] ?? ""] }),
    after: DOC.replace(" more", ""),
  },
];

const rejects: ToolCase[] = [
  {
    name: "replaceText with an empty search",
    tool: "replaceText",
    input: () => ({ search: "", replace: "x" }),
    output: fail("invalid-input", "search"),
  },
  {
    name: "replaceText with text that does not occur",
    tool: "replaceText",
    input: () => ({ search: "zebra", replace: "x" }),
    output: fail("not-found", "zebra"),
  },
  {
    name: "replaceText in an unknown block",
    tool: "replaceText",
    input: () => ({ search: "one", replace: "x", blockId: "bmissing0" }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "replaceText in a block without the text",
    tool: "replaceText",
    input: (i) => ({ search: "one", replace: "x", blockId: i[0] }),
    output: fail("not-found"),
  },
  {
    name: "replaceText with a bad occurrence",
    tool: "replaceText",
    input: () => ({ search: "one", replace: "x", occurrence: "second" }),
    output: fail("invalid-input", "occurrence"),
  },
];

describe("replaceText", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
