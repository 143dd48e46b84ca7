import type { UpdateTableCellInput, UpdateTableCellOutput } from "@coauthor/types/tools";
import { $isTableCellNode, $isTableNode, $isTableRowNode } from "@lexical/table";
import type { LexicalEditor } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $contentRuleBreak, $elementDepth } from "../content-rule-check.ts";
import { $readCellMarkdown } from "../markdown-table.ts";
import { $resolveBlock, contentFailure, isFailure } from "./tool-helpers.ts";

/** Replaces the content of one table cell (row and column count from 0, header row included). */
export function updateTableCell(editor: LexicalEditor, input: UpdateTableCellInput): UpdateTableCellOutput {
  return applyAgentEdit(editor, (): UpdateTableCellOutput => {
    const table = $resolveBlock(input.blockId, "blockId");
    if (isFailure(table)) return table;
    if (!$isTableNode(table))
      return toolFailure("wrong-block-type", `blockId: "${input.blockId}" is not a table`);
    const row = table.getChildAtIndex(input.row);
    if (!$isTableRowNode(row)) {
      return toolFailure("invalid-range", `row: the table has rows 0..${table.getChildrenSize() - 1}`);
    }
    const cell = row.getChildAtIndex(input.column);
    if (!$isTableCellNode(cell)) {
      return toolFailure(
        "invalid-range",
        `column: row ${input.row} has columns 0..${row.getChildrenSize() - 1}`,
      );
    }
    const read = $readCellMarkdown(input.text);
    if (!read.ok) return contentFailure("text", read.problem);
    const broken = $contentRuleBreak([read.paragraph], $elementDepth(cell));
    if (broken !== null) return contentFailure("text", `${broken} in this cell`);
    cell.clear();
    cell.append(read.paragraph);
    return { ok: true, blockIds: [input.blockId] };
  });
}
