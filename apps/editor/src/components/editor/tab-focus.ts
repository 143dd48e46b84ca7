import { $isCodeNode } from "@lexical/code";
import { $isListItemNode } from "@lexical/list";
import { $isTableCellNode } from "@lexical/table";
import { $findMatchingParent } from "@lexical/utils";
import {
  $getSelection,
  $isRangeSelection,
  COMMAND_PRIORITY_LOW,
  KEY_TAB_COMMAND,
  type LexicalEditor,
  type LexicalNode,
} from "lexical";

const indentsOnTab = (node: LexicalNode) =>
  $isListItemNode(node) || $isCodeNode(node) || $isTableCellNode(node);

/** Whether Tab indents at the selection: inside a list, a code block or a table, as in Google Docs. */
export function $tabIndentsAtSelection(): boolean {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return false;
  return [selection.anchor.getNode(), selection.focus.getNode()].some(
    (node) => $findMatchingParent(node, indentsOnTab) !== null,
  );
}

/**
 * Tab and Shift+Tab move focus out of the editor (no keyboard trap, WCAG 2.1.2) except where
 * they indent. Registered above the tab indentation handler: claiming the key without
 * `preventDefault` skips the indentation and leaves the browser's focus move in place.
 */
export function registerTabFocus(editor: LexicalEditor): () => void {
  return editor.registerCommand(KEY_TAB_COMMAND, () => !$tabIndentsAtSelection(), COMMAND_PRIORITY_LOW);
}
