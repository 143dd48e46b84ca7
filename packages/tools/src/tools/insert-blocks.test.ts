import { describe, expect } from "vitest";
import { fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const applies: ToolCase[] = [
  {
    name: "insertBlocks at the end appends the parsed blocks",
    markdown: "One",
    tool: "insertBlocks",
    input: () => ({ markdown: "## Two\n\n- x", position: { at: "end" } }),
    output: (_before, after) => ({ ok: true, blockIds: after.slice(1) }),
    after: "One\n\n## Two\n\n- x",
  },
  {
    name: "insertBlocks at the start prepends",
    markdown: "One",
    tool: "insertBlocks",
    input: () => ({ markdown: "Zero", position: { at: "start" } }),
    output: (_before, after) => ({ ok: true, blockIds: after.slice(0, 1) }),
    after: "Zero\n\nOne",
  },
  {
    name: "insertBlocks after a block",
    markdown: "One\n\nThree",
    tool: "insertBlocks",
    input: (i) => ({ markdown: "Two *a*\n\nTwo *b*", position: { at: "after", blockId: i[0] } }),
    output: (_before, after) => ({ ok: true, blockIds: after.slice(1, 3) }),
    after: "One\n\nTwo *a*\n\nTwo *b*\n\nThree",
  },
  {
    name: "insertBlocks before a block",
    markdown: "One\n\nThree",
    tool: "insertBlocks",
    input: (i) => ({ markdown: "> Two", position: { at: "before", blockId: i[1] } }),
    output: (_before, after) => ({ ok: true, blockIds: after.slice(1, 2) }),
    after: "One\n\n> Two\n\nThree",
  },
  {
    name: "insertBlocks of a heading into an empty document takes the placeholder paragraph's place",
    markdown: "",
    tool: "insertBlocks",
    input: () => ({ markdown: "# Hello\n\nThere", position: { at: "end" } }),
    output: (_before, after) => ({ ok: true, blockIds: after }),
    after: "# Hello\n\nThere",
  },
  {
    // The placeholder stays (a co-editor may be typing into it): it takes the paragraph's content.
    name: "insertBlocks of paragraphs into an empty document writes the first into the placeholder, keeping its id",
    markdown: "",
    tool: "insertBlocks",
    input: () => ({ markdown: "Hello *there*\n\nSecond", position: { at: "start" } }),
    output: (before, after) => ({ ok: true, blockIds: [before[0] ?? "", after[1] ?? ""] }),
    after: "Hello *there*\n\nSecond",
  },
  {
    name: "insertBlocks of a Markdown list after a list item adds items to that list",
    markdown: "- a\n- c",
    tool: "insertBlocks",
    input: (_i, items) => ({ markdown: "- b", position: { at: "after", blockId: items[0] } }),
    output: () => ({ ok: true, blockIds: [expect.stringMatching(/^b[0-9a-z]{8}$/)] }),
    after: "- a\n- b\n- c",
  },
  {
    name: "insertBlocks parses check lists and tables",
    markdown: "x",
    tool: "insertBlocks",
    input: () => ({ markdown: "- [x] done\n\n| h |\n| - |\n| v |", position: { at: "end" } }),
    output: (_i, after) => ({ ok: true, blockIds: after.slice(1) }),
    after: "x\n\n- [x] done\n\n| h |\n| - |\n| v |",
  },
];

const rejects: ToolCase[] = [
  {
    name: "insertBlocks of a paragraph next to a list item",
    tool: "insertBlocks",
    input: (_i, items) => ({ markdown: "x", position: { at: "after", blockId: items[0] } }),
    output: fail("invalid-position", "list item"),
  },
  {
    name: "insertBlocks with only blank lines",
    tool: "insertBlocks",
    input: () => ({ markdown: "\n\n", position: { at: "end" } }),
    output: fail("invalid-markdown", "no blocks"),
  },
  {
    name: "insertBlocks at the selection when there is none",
    tool: "insertBlocks",
    input: () => ({ markdown: "x", position: { at: "selection" } }),
    output: fail("no-selection"),
  },
  {
    name: "insertBlocks after an unknown block",
    tool: "insertBlocks",
    input: () => ({ markdown: "x", position: { at: "after", blockId: "bmissing0" } }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "insertBlocks with an unknown position",
    tool: "insertBlocks",
    input: () => ({ markdown: "x", position: { at: "middle" } }),
    output: fail("invalid-input", "position.at"),
  },
  {
    name: "insertBlocks with empty Markdown",
    tool: "insertBlocks",
    input: () => ({ markdown: "", position: { at: "end" } }),
    output: fail("invalid-input", "markdown"),
  },
  {
    name: "insertBlocks without input",
    tool: "insertBlocks",
    input: () => undefined,
    output: fail("invalid-input", "input"),
  },
];

describe("insertBlocks", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
