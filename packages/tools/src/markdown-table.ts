import { withoutForbiddenControls } from "@coauthor/types";
import {
  $createTableCellNode,
  $createTableNode,
  $createTableRowNode,
  TableCellHeaderStates,
  type TableNode,
} from "@lexical/table";
import { $createParagraphNode, $createTextNode, type ParagraphNode } from "lexical";
import type { ContentProblem } from "./content-problem.ts";
import { $readInlineMarkdown } from "./markdown-parse.ts";

/**
 * The paragraph of a cell holding `markdown` read as inline Markdown (bold, links, …), or the way
 * the Markdown breaks the content rule.
 */
export function $readCellMarkdown(
  markdown: string,
): { ok: true; paragraph: ParagraphNode } | { ok: false; problem: ContentProblem } {
  const read = $readInlineMarkdown(markdown);
  if (!read.ok) return read;
  return { ok: true, paragraph: $createParagraphNode().append(...read.nodes) };
}

/** The width of a table of these rows: its longest row. */
export function tableWidth(rows: ReadonlyArray<ReadonlyArray<string>>): number {
  let width = 0;
  for (const cells of rows) width = Math.max(width, cells.length);
  return width;
}

/**
 * A table built from rows of plain cell text (without the control characters no document holds);
 * the first row is the header row when `header`.
 */
export function $createTableFromText(rows: string[][], header: boolean): TableNode {
  const width = tableWidth(rows);
  const table = $createTableNode();
  rows.forEach((cells, r) => {
    const row = $createTableRowNode();
    for (let c = 0; c < width; c++) {
      const cell = $createTableCellNode(
        header && r === 0 ? TableCellHeaderStates.ROW : TableCellHeaderStates.NO_STATUS,
      );
      cell.append($createParagraphNode().append($createTextNode(withoutForbiddenControls(cells[c] ?? ""))));
      row.append(cell);
    }
    table.append(row);
  });
  return table;
}
