import { describe } from "vitest";
import { DOC, fail, itAppliesCases, itRejectsCases, type ToolCase } from "../tool-cases.ts";

const TABLE = "| A | B |\n| - | - |\n| 1 | 2 |";

const applies: ToolCase[] = [
  {
    name: "insertTable after a block",
    tool: "insertTable",
    input: (i) => ({
      rows: [
        ["A", "B"],
        ["1", "2"],
      ],
      position: { at: "after", blockId: i[0] },
    }),
    output: (_i, after) => ({ ok: true, blockIds: [after[1] ?? ""] }),
    after: DOC.replace("# Title", `# Title\n\n${TABLE}`),
  },
  {
    name: "insertTable pads short rows and escapes pipes",
    markdown: "",
    tool: "insertTable",
    input: () => ({ rows: [["A", "B"], ["a|b"]], position: { at: "end" } }),
    output: (_i, after) => ({ ok: true, blockIds: after }),
    after: "| A | B |\n| - | - |\n| a\\|b | |",
  },
  {
    name: "updateTableCell writes inline Markdown into a cell",
    markdown: TABLE,
    tool: "updateTableCell",
    input: (i) => ({ blockId: i[0], row: 1, column: 1, text: "**x** y" }),
    output: (i) => ({ ok: true, blockIds: [i[0] ?? ""] }),
    after: "| A | B |\n| - | - |\n| 1 | **x** y |",
  },
  {
    name: "updateTableCell can empty a header cell",
    markdown: TABLE,
    tool: "updateTableCell",
    input: (i) => ({ blockId: i[0], row: 0, column: 0, text: "" }),
    output: (i) => ({ ok: true, blockIds: [i[0] ?? ""] }),
    after: "| | B |\n| - | - |\n| 1 | 2 |",
  },
];

const rejects: ToolCase[] = [
  {
    name: "insertTable without rows",
    tool: "insertTable",
    input: () => ({ rows: [], position: { at: "end" } }),
    output: fail("invalid-input", "rows"),
  },
  {
    name: "insertTable next to an unknown block",
    tool: "insertTable",
    input: () => ({ rows: [["a"]], position: { at: "after", blockId: "bmissing0" } }),
    output: fail("unknown-block", "bmissing0"),
  },
  {
    name: "insertTable at the selection without one",
    tool: "insertTable",
    input: () => ({ rows: [["a"]], position: { at: "selection" } }),
    output: fail("no-selection"),
  },
  {
    name: "updateTableCell of a paragraph",
    tool: "updateTableCell",
    input: (i) => ({ blockId: i[1], row: 0, column: 0, text: "x" }),
    output: fail("wrong-block-type", "not a table"),
  },
  {
    name: "updateTableCell past the last row",
    markdown: TABLE,
    tool: "updateTableCell",
    input: (i) => ({ blockId: i[0], row: 5, column: 0, text: "x" }),
    output: fail("invalid-range", "rows 0..1"),
  },
  {
    name: "updateTableCell past the last column",
    markdown: TABLE,
    tool: "updateTableCell",
    input: (i) => ({ blockId: i[0], row: 0, column: 2, text: "x" }),
    output: fail("invalid-range", "columns 0..1"),
  },
  {
    name: "updateTableCell with a negative row",
    markdown: TABLE,
    tool: "updateTableCell",
    input: (i) => ({ blockId: i[0], row: -1, column: 0, text: "x" }),
    output: fail("invalid-input", "row"),
  },
];

describe("table tools", () => {
  itAppliesCases(applies);
  itRejectsCases(rejects);
});
