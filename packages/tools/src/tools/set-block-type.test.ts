import { describe } from "vitest";
import { DOC, fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const PARAGRAPH = "First paragraph with **bold** text.";
const same = (n: number) => (i: string[]) => ({ ok: true as const, blockIds: [i[n] ?? ""] });

const applies: ToolCase[] = [
  {
    name: "setBlockType paragraph to heading keeps formatting and id",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[1], type: "heading-2" }),
    output: same(1),
    after: DOC.replace(PARAGRAPH, `## ${PARAGRAPH}`),
  },
  {
    name: "setBlockType heading to paragraph",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[0], type: "paragraph" }),
    output: same(0),
    after: DOC.replace("# Title", "Title"),
  },
  {
    name: "setBlockType to quote",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[4], type: "quote" }),
    output: same(4),
    after: DOC.replace("Last one", "> Last one"),
  },
  {
    name: "setBlockType to code with a language keeps plain text",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[1], type: "code", language: "ts" }),
    output: same(1),
    after: DOC.replace(PARAGRAPH, "```ts\nFirst paragraph with bold text.\n```"),
  },
  {
    name: "setBlockType code back to paragraph",
    markdown: "```\na\nb\n```",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[0], type: "paragraph" }),
    output: same(0),
    after: "a\\\nb",
  },
  {
    name: "setBlockType of a list to another list type",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[2], type: "number-list" }),
    output: same(2),
    after: DOC.replace("- one\n- two", "1. one\n2. two"),
  },
  {
    name: "setBlockType of a list to check list",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[2], type: "check-list" }),
    output: same(2),
    after: DOC.replace("- one\n- two", "- [ ] one\n- [ ] two"),
  },
  {
    name: "setBlockType of a whole list to paragraphs gives each the item's id",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[2], type: "paragraph" }),
    output: (_i, _a, items) => ({ ok: true, blockIds: items }),
    after: DOC.replace("- one\n- two", "one\n\ntwo"),
  },
  {
    name: "setBlockType of a paragraph to a bullet list item",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[4], type: "bullet-list" }),
    output: same(4),
    after: DOC.replace("Last one", "- Last one"),
  },
  {
    name: "setBlockType of a middle list item splits the list",
    markdown: "- a\n- b\n- c",
    tool: "setBlockType",
    input: (_i, items) => ({ blockId: items[1], type: "heading-3" }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[1] ?? ""] }),
    after: "- a\n\n### b\n\n- c",
  },
  {
    name: "setBlockType of an item to its list's type changes nothing",
    tool: "setBlockType",
    input: (_i, items) => ({ blockId: items[0], type: "bullet-list" }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[0] ?? ""] }),
  },
];

const rejects: ToolCase[] = [
  {
    name: "setBlockType of an unknown block",
    tool: "setBlockType",
    input: () => ({ blockId: "bmissing0", type: "quote" }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "setBlockType of a table",
    markdown: "| a |\n| - |\n| 1 |",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[0], type: "quote" }),
    output: fail("wrong-block-type", "table"),
  },
  {
    name: "setBlockType to heading-7",
    tool: "setBlockType",
    input: (i) => ({ blockId: i[0], type: "heading-7" }),
    output: fail("invalid-input", "type"),
  },
  {
    name: "setBlockType of a nested item",
    markdown: "- a\n    - b",
    tool: "setBlockType",
    input: (_i, items) => ({ blockId: items[1], type: "paragraph" }),
    output: fail("wrong-block-type", "top-level list"),
  },
];

describe("setBlockType", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
