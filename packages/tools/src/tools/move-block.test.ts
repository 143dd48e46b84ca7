import { describe } from "vitest";
import { fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "moveBlock to the end of the document",
    tool: "moveBlock",
    input: (i) => ({ blockId: i[0], position: { at: "end" } }),
    output: (i) => ({ ok: true, blockIds: [i[0] ?? ""] }),
    after:
      "First paragraph with **bold** text.\n\n- one\n- two\n\n> A quote\n\nLast one, one more.\n\n# Title",
  },
  {
    name: "moveBlock before another block",
    tool: "moveBlock",
    input: (i) => ({ blockId: i[4], position: { at: "before", blockId: i[1] } }),
    output: (i) => ({ ok: true, blockIds: [i[4] ?? ""] }),
    after:
      "# Title\n\nLast one, one more.\n\nFirst paragraph with **bold** text.\n\n- one\n- two\n\n> A quote",
  },
  {
    name: "moveBlock of a list item after another item",
    tool: "moveBlock",
    input: (_i, items) => ({ blockId: items[0], position: { at: "after", blockId: items[1] } }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[0] ?? ""] }),
    after:
      "# Title\n\nFirst paragraph with **bold** text.\n\n- two\n- one\n\n> A quote\n\nLast one, one more.",
  },
  {
    name: "moveBlock of the last item out of a list removes the empty list",
    markdown: "- a\n\n1. b",
    tool: "moveBlock",
    input: (_i, items) => ({ blockId: items[0], position: { at: "after", blockId: items[1] } }),
    output: (_i, _a, items) => ({ ok: true, blockIds: [items[0] ?? ""] }),
    after: "1. b\n2. a",
  },
];

const rejects: ToolCase[] = [
  {
    name: "moveBlock of an unknown block",
    tool: "moveBlock",
    input: () => ({ blockId: "bmissing0", position: { at: "end" } }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "moveBlock next to an unknown block",
    tool: "moveBlock",
    input: (i) => ({ blockId: i[0], position: { at: "after", blockId: "bmissing0" } }),
    output: fail("unknown-block", "position.blockId"),
  },
  {
    name: "moveBlock next to itself",
    tool: "moveBlock",
    input: (i) => ({ blockId: i[0], position: { at: "after", blockId: i[0] } }),
    output: fail("invalid-position", "itself"),
  },
  {
    name: "moveBlock of a list item next to a paragraph",
    tool: "moveBlock",
    input: (i, items) => ({ blockId: items[0], position: { at: "after", blockId: i[0] } }),
    output: fail("invalid-position", "list item"),
  },
  {
    name: "moveBlock of a list next to its own item",
    tool: "moveBlock",
    input: (i, items) => ({ blockId: i[2], position: { at: "after", blockId: items[0] } }),
    output: fail("invalid-position"),
  },
  {
    name: "moveBlock to the selection",
    tool: "moveBlock",
    input: (i) => ({ blockId: i[0], position: { at: "selection" } }),
    output: fail("invalid-input", "position"),
  },
];

describe("moveBlock", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
