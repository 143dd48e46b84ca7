import {
  $createTableCellNode,
  $createTableNode,
  $createTableRowNode,
  TableCellHeaderStates,
  type TableNode,
} from "@lexical/table";
import { $createParagraphNode, $createTextNode, type LexicalNode } from "lexical";
import { $markdownToInline } from "./markdown-parse.ts";

/** The paragraph of a cell holding `markdown` read as inline Markdown (bold, links, …); never empty. */
export function $parseCellMarkdown(markdown: string): LexicalNode[] {
  return [$createParagraphNode().append(...$markdownToInline(markdown))];
}

/** A table built from rows of plain cell text; the first row is the header row when `header`. */
export function $createTableFromText(rows: string[][], header: boolean): TableNode {
  const width = Math.max(...rows.map((cells) => cells.length));
  const table = $createTableNode();
  rows.forEach((cells, r) => {
    const row = $createTableRowNode();
    for (let c = 0; c < width; c++) {
      const cell = $createTableCellNode(
        header && r === 0 ? TableCellHeaderStates.ROW : TableCellHeaderStates.NO_STATUS,
      );
      cell.append($createParagraphNode().append($createTextNode(cells[c] ?? "")));
      row.append(cell);
    }
    table.append(row);
  });
  return table;
}
