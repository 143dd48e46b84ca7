import { describe, expect } from "vitest";
import { fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const items = (_listId: string | undefined) => [
  { id: expect.stringMatching(/^b[0-9a-z]{8}$/), depth: 0, text: "one" },
  { id: expect.stringMatching(/^b[0-9a-z]{8}$/), depth: 0, text: "two" },
];

const applies: ToolCase[] = [
  {
    name: "readDocument returns every block with id, type and Markdown",
    tool: "readDocument",
    input: () => ({}),
    output: (i) => ({
      ok: true,
      totalBlocks: 5,
      nextFromBlock: null,
      blocks: [
        { id: i[0] ?? "", type: "heading-1", markdown: "# Title" },
        { id: i[1] ?? "", type: "paragraph", markdown: "First paragraph with **bold** text." },
        { id: i[2] ?? "", type: "bullet-list", markdown: "- one\n- two", items: items(i[2]) },
        { id: i[3] ?? "", type: "quote", markdown: "> A quote" },
        { id: i[4] ?? "", type: "paragraph", markdown: "Last one, one more." },
      ],
    }),
  },
  {
    name: "readDocument pages through long documents",
    tool: "readDocument",
    input: () => ({ fromBlock: 1, maxBlocks: 2 }),
    output: (i) => ({
      ok: true,
      totalBlocks: 5,
      nextFromBlock: 3,
      notice:
        "This is only part of the document: blocks 2 to 3 of 5. 2 more blocks are not shown. Call readDocument with fromBlock: 3 to read on before you act on or report about the whole document.",
      blocks: [
        { id: i[1] ?? "", type: "paragraph", markdown: "First paragraph with **bold** text." },
        { id: i[2] ?? "", type: "bullet-list", markdown: "- one\n- two", items: items(i[2]) },
      ],
    }),
  },
  {
    name: "readDocument past the end returns no blocks",
    tool: "readDocument",
    input: () => ({ fromBlock: 9 }),
    output: { ok: true, totalBlocks: 5, nextFromBlock: null, blocks: [] },
  },
  {
    name: "readDocument names code and numbered-list blocks",
    markdown: "1. a\n\n```js\nx()\n```\n\n###### h",
    tool: "readDocument",
    input: () => ({ maxBlocks: 500 }),
    output: (i) => ({
      ok: true,
      totalBlocks: 3,
      nextFromBlock: null,
      blocks: [
        {
          id: i[0] ?? "",
          type: "number-list",
          markdown: "1. a",
          items: [{ id: expect.any(String), depth: 0, text: "a" }],
        },
        { id: i[1] ?? "", type: "code", markdown: "```js\nx()\n```" },
        { id: i[2] ?? "", type: "heading-6", markdown: "###### h" },
      ],
    }),
  },
];

const rejects: ToolCase[] = [
  {
    name: "readDocument with maxBlocks 0",
    tool: "readDocument",
    input: () => ({ maxBlocks: 0 }),
    output: fail("invalid-input", "maxBlocks"),
  },
  {
    name: "readDocument with a negative fromBlock",
    tool: "readDocument",
    input: () => ({ fromBlock: -1 }),
    output: fail("invalid-input", "fromBlock"),
  },
];

describe("readDocument", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
