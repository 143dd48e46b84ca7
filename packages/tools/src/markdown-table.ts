import {
  $generateNodesFromMarkdownString,
  type MultilineElementTransformer,
  TEXT_FORMAT_TRANSFORMERS,
  TEXT_MATCH_TRANSFORMERS,
} from "@lexical/markdown";
import {
  $createTableCellNode,
  $createTableNode,
  $createTableRowNode,
  $isTableNode,
  TableCellHeaderStates,
  TableCellNode,
  TableNode,
  TableRowNode,
} from "@lexical/table";
import { $createParagraphNode, $createTextNode, type ElementNode, type LexicalNode } from "lexical";
import { $tableMarkdown } from "./markdown-export.ts";

const ROW = /^\s*\|(.*)\|\s*$/;
const DIVIDER = /^\s*\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$/;

/** Splits a pipe-table row into cell texts, honouring `\|` escapes. */
export function splitTableRow(line: string): string[] {
  const inner = ROW.exec(line)?.[1] ?? line;
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

const INLINE = [...TEXT_FORMAT_TRANSFORMERS, ...TEXT_MATCH_TRANSFORMERS];

/** The paragraph(s) of a cell holding `markdown` read as inline Markdown (bold, links, …); never empty. */
export function $parseCellMarkdown(markdown: string): LexicalNode[] {
  const nodes = markdown.trim() === "" ? [] : $generateNodesFromMarkdownString(markdown, INLINE);
  return nodes.length > 0 ? nodes : [$createParagraphNode()];
}

/** A table cell holding `markdown` parsed as inline Markdown. */
export function $createCellFromMarkdown(markdown: string, header: boolean): TableCellNode {
  const cell = $createTableCellNode(header ? TableCellHeaderStates.ROW : TableCellHeaderStates.NO_STATUS);
  return cell.append(...$parseCellMarkdown(markdown));
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

function $importTable(lines: string[], rootNode: ElementNode, start: number): [boolean, number] | null {
  const divider = lines[start + 1];
  if (divider === undefined || !DIVIDER.test(divider)) return null;
  const rows: string[][] = [splitTableRow(lines[start] ?? "")];
  let end = start + 1;
  while (end + 1 < lines.length && ROW.test(lines[end + 1] ?? "")) {
    end++;
    rows.push(splitTableRow(lines[end] ?? ""));
  }
  const width = Math.max(...rows.map((cells) => cells.length));
  const table = $createTableNode();
  rows.forEach((cells, r) => {
    const row = $createTableRowNode();
    for (let c = 0; c < width; c++) row.append($createCellFromMarkdown(cells[c] ?? "", r === 0));
    table.append(row);
  });
  rootNode.append(table);
  return [true, end];
}

/** GFM pipe tables: `| a | b |` rows under a `| --- | --- |` divider; the first row is the header. */
export const TABLE: MultilineElementTransformer = {
  type: "multiline-element",
  dependencies: [TableNode, TableRowNode, TableCellNode],
  regExpStart: ROW,
  handleImportAfterStartMatch: ({ lines, rootNode, startLineIndex }) =>
    $importTable(lines, rootNode, startLineIndex),
  // Typing a table row is not a shortcut: tables are only made by import or the toolbar.
  replace: () => false,
  export: (node) => ($isTableNode(node) ? $tableMarkdown(node) : null),
};
