import { describe } from "vitest";
import { DOC, fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "replaceBlock swaps one block for several, the first keeping its id",
    tool: "replaceBlock",
    input: (i) => ({ blockId: i[1], markdown: "New *text*\n\n## Sub" }),
    output: (i, after) => ({ ok: true, blockIds: [i[1] ?? "", after[2] ?? ""] }),
    after: DOC.replace("First paragraph with **bold** text.", "New *text*\n\n## Sub"),
  },
  {
    name: "replaceBlock of a list item with one line keeps the item",
    tool: "replaceBlock",
    input: (_i, items) => ({ blockId: items[1], markdown: "**2**" }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[1] ?? ""] }),
    after: DOC.replace("- two", "- **2**"),
  },
  {
    name: "replaceBlock of a list item with a list splices in its items",
    tool: "replaceBlock",
    input: (_i, items) => ({ blockId: items[0], markdown: "- x\n- y" }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[0] ?? "", expect.stringMatching(/^b/)] }),
    after: DOC.replace("- one", "- x\n- y"),
  },
  {
    name: "replaceBlock with a pipe table",
    markdown: "One",
    tool: "replaceBlock",
    input: (i) => ({ blockId: i[0], markdown: "| a | b |\n| - | - |\n| 1 | **2** |" }),
    output: (i) => ({ ok: true, blockIds: [i[0] ?? ""] }),
    after: "| a | b |\n| - | - |\n| 1 | **2** |",
  },
];

const rejects: ToolCase[] = [
  {
    name: "replaceBlock of an unknown block",
    tool: "replaceBlock",
    input: () => ({ blockId: "bmissing0", markdown: "x" }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "replaceBlock with blank Markdown",
    tool: "replaceBlock",
    input: (i) => ({ blockId: i[0], markdown: "\n\n" }),
    output: fail("invalid-markdown"),
  },
  {
    name: "replaceBlock of a list item with a heading",
    tool: "replaceBlock",
    input: (_i, items) => ({ blockId: items[0], markdown: "# no" }),
    output: fail("invalid-markdown", "list item"),
  },
];

import { expect } from "vitest";

describe("replaceBlock", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
