import { describe } from "vitest";
import { DOC, fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "replaceText replaces every occurrence in the document by default",
    tool: "replaceText",
    input: () => ({ search: "one", replace: "ONE" }),
    output: (i) => ({ ok: true, replacements: 3, blockIds: [i[2] ?? "", i[4] ?? ""] }),
    after: DOC.replace("- one", "- ONE").replace("one, one", "ONE, ONE"),
  },
  {
    name: "replaceText with occurrence first replaces only the first match",
    tool: "replaceText",
    input: () => ({ search: "one", replace: "1", occurrence: "first" }),
    output: (i) => ({ ok: true, replacements: 1, blockIds: [i[2] ?? ""] }),
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
    name: "replaceText says which occurrences it left because they span differently formatted text",
    markdown: "a**bc**d ab",
    tool: "replaceText",
    // The first "ab" is half plain, half bold: in no single run, so it is left and reported.
    input: () => ({ search: "ab", replace: "X" }),
    output: (i) => ({
      ok: true,
      replacements: 1,
      blockIds: [i[0] ?? ""],
      acrossFormatting: { count: 1, blockIds: [i[0] ?? ""] },
    }),
    after: "a**bc**d X",
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
    name: "replaceText with text split across formatting",
    tool: "replaceText",
    input: () => ({ search: "with bold", replace: "x" }),
    output: fail("not-found", "formatted"),
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
