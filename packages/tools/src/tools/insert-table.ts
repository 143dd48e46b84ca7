import type { InsertTableInput, InsertTableOutput } from "@coauthor/types/tools";
import type { LexicalEditor } from "lexical";
import { applyAgentEdit } from "../agent-edit.ts";
import { $assignFreshBlockId } from "../block-index.ts";
import { tableSizeBreak } from "../content-rule-check.ts";
import { $createTableFromText, tableWidth } from "../markdown-table.ts";
import { $resolveTopLevelPosition, contentFailure, isFailure } from "./tool-helpers.ts";

/** Inserts a table of plain-text cells (first row as header by default) at the position. */
export function insertTable(editor: LexicalEditor, input: InsertTableInput): InsertTableOutput {
  return applyAgentEdit(editor, (): InsertTableOutput => {
    const tooLarge = tableSizeBreak(input.rows.length, tableWidth(input.rows));
    if (tooLarge !== null) return contentFailure("rows", tooLarge);
    const insert = $resolveTopLevelPosition(input.position);
    if (isFailure(insert)) return insert;
    const table = $createTableFromText(input.rows, input.header);
    const id = $assignFreshBlockId(table);
    insert([table]);
    return { ok: true, blockIds: [id] };
  });
}
