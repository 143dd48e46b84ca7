import { describe, expect, it } from "vitest";
import type { BlockInfo } from "../editor/block-info";
import { describeToolCall, type RecordedToolCall } from "./tool-activity";

const blocks: Record<string, BlockInfo> = {
  costs: { type: "paragraph", text: "Costs were flat." },
  intro: { type: "heading-2", text: "Introduction" },
  a: { type: "paragraph", text: "First gone." },
  b: { type: "paragraph", text: "Second gone." },
  long: {
    type: "paragraph",
    text: "A sentence that goes on for far longer than anyone would quote in a panel.",
  },
};
const lookup = (id: string) => blocks[id];
const ok = (toolName: string, input: unknown, facts?: RecordedToolCall["facts"]): RecordedToolCall => ({
  toolName,
  input,
  status: "ok",
  facts,
});

const cases: [string, RecordedToolCall, string, string | undefined][] = [
  [
    "an insert after a block, counted by kind",
    ok(
      "insertBlocks",
      { markdown: "A.\n\nB.\n\nC.\n\nD.", position: { at: "after", blockId: "costs" } },
      { blockIds: ["n1", "n2"], count: 4 },
    ),
    "Added 4 paragraphs after 'Costs were flat.'",
    "n1",
  ],
  [
    "a heading at the end",
    ok("insertBlocks", { markdown: "## Summary", position: { at: "end" } }, { blockIds: ["h"], count: 1 }),
    "Added 1 heading at the end",
    "h",
  ],
  [
    "mixed blocks",
    ok("insertBlocks", { markdown: "# T\n\ntext", position: { at: "start" } }, { blockIds: ["x"], count: 2 }),
    "Added 2 blocks at the start",
    "x",
  ],
  [
    "a replacement in several places",
    ok("replaceText", { search: "north", replace: "south" }, { blockIds: ["costs"], count: 3 }),
    "Replaced 'north' with 'south' in 3 places",
    "costs",
  ],
  [
    "a replacement in one place",
    ok("replaceText", { search: "north", replace: "south" }, { blockIds: ["costs"], count: 1 }),
    "Replaced 'north' with 'south' in 1 place",
    "costs",
  ],
  [
    "a deletion of known blocks",
    ok("deleteBlocks", { blockIds: ["a", "b"] }, { blockIds: ["a", "b"], count: 2 }),
    "Deleted 2 paragraphs",
    undefined,
  ],
  [
    "a deletion of one block",
    ok("deleteBlocks", { blockIds: ["a"] }, { count: 1 }),
    "Deleted 1 paragraph 'First gone.'",
    undefined,
  ],
  [
    "a deletion of unknown blocks",
    ok("deleteBlocks", { blockIds: ["zz"] }, { count: 1 }),
    "Deleted 1 block",
    undefined,
  ],
  [
    "a page of a long document",
    ok("readDocument", { fromBlock: 0 }, { count: 200, totalBlocks: 2000 }),
    "Read the document (blocks 1–200 of 2,000)",
    undefined,
  ],
  [
    "a later page",
    ok("readDocument", { fromBlock: 200 }, { count: 200, totalBlocks: 2000 }),
    "Read the document (blocks 201–400 of 2,000)",
    undefined,
  ],
  [
    "a whole short document",
    ok("readDocument", {}, { count: 3, totalBlocks: 3 }),
    "Read the document (all 3 blocks)",
    undefined,
  ],
  [
    "a search with matches",
    ok("findText", { query: "cat" }, { blockIds: ["costs"], count: 2 }),
    "Found 'cat' in 2 places",
    "costs",
  ],
  [
    "a search without",
    ok("findText", { query: "cat" }, { count: 0 }),
    "Looked for 'cat': not found",
    undefined,
  ],
  [
    "a rewrite quotes the block, shortened",
    ok("replaceBlock", { blockId: "long", markdown: "x" }),
    "Rewrote 'A sentence that goes on for far longer…'",
    "long",
  ],
  [
    "a type change",
    ok("setBlockType", { blockId: "costs", type: "heading-2" }),
    "Turned 'Costs were flat.' into a level-2 heading",
    "costs",
  ],
  [
    "a move",
    ok("moveBlock", { blockId: "costs", position: { at: "before", blockId: "intro" } }),
    "Moved 'Costs were flat.' before 'Introduction'",
    "costs",
  ],
  [
    "formatting",
    ok("formatText", { blockId: "costs", text: "flat", add: ["bold"] }),
    "Formatted 'flat': made it bold",
    "costs",
  ],
  [
    "a table",
    ok(
      "insertTable",
      {
        rows: [
          ["a", "b"],
          ["c", "d"],
        ],
        position: { at: "end" },
      },
      { blockIds: ["t"], count: 1 },
    ),
    "Added a table (2 rows × 2 columns) at the end",
    "t",
  ],
  ["a tool it does not know", ok("summon", {}), "Used summon", undefined],
];

describe("describeToolCall", () => {
  it.each(cases)("says %s in the writer's words", (_name, call, text, blockId) => {
    expect(describeToolCall(call, lookup)).toEqual(blockId === undefined ? { text } : { text, blockId });
  });

  it("says what a call is doing while it runs, and what failed", () => {
    const call = ok("replaceText", { search: "north", replace: "south" });
    expect(describeToolCall({ ...call, status: "running" }, lookup).text).toBe(
      "Replacing 'north' with 'south'",
    );
    expect(describeToolCall({ ...call, status: "failed" }, lookup).text).toBe(
      "Could not replace 'north' with 'south'",
    );
  });
});
