import { describe } from "vitest";
import { fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "deleteBlocks removes the listed blocks",
    tool: "deleteBlocks",
    input: (i) => ({ blockIds: [i[1], i[3]] }),
    output: (i) => ({ ok: true, deleted: 2, blockIds: [i[1] ?? "", i[3] ?? ""] }),
    after: "# Title\n\n- one\n- two\n\nLast one, one more.",
  },
  {
    name: "deleteBlocks counts a repeated id once",
    tool: "deleteBlocks",
    input: (i) => ({ blockIds: [i[0], i[0]] }),
    output: (i) => ({ ok: true, deleted: 1, blockIds: [i[0] ?? ""] }),
    after: "First paragraph with **bold** text.\n\n- one\n- two\n\n> A quote\n\nLast one, one more.",
  },
  {
    name: "deleteBlocks of every block leaves one empty paragraph",
    markdown: "a\n\nb",
    tool: "deleteBlocks",
    input: (i) => ({ blockIds: i }),
    output: (i) => ({ ok: true, deleted: 2, blockIds: i }),
    after: "",
  },
];

const rejects: ToolCase[] = [
  {
    name: "deleteBlocks with one unknown id among known ones",
    tool: "deleteBlocks",
    input: (i) => ({ blockIds: [i[0], "bmissing0", i[1]] }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "deleteBlocks with no ids",
    tool: "deleteBlocks",
    input: () => ({ blockIds: [] }),
    output: fail("invalid-input", "blockIds"),
  },
];

describe("deleteBlocks", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
