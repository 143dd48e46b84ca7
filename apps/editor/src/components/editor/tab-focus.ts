import { $isCodeNode } from "@lexical/code";
import { $isListItemNode } from "@lexical/list";
import { $isTableCellNode } from "@lexical/table";
import { $findMatchingParent } from "@lexical/utils";
import {
  $getSelection,
  $isRangeSelection,
  COMMAND_PRIORITY_LOW,
  INDENT_CONTENT_COMMAND,
  KEY_TAB_COMMAND,
  type LexicalEditor,
  type LexicalNode,
  OUTDENT_CONTENT_COMMAND,
} from "lexical";

/** Where Tab indents instead of leaving the editor. */
export type TabIndentPlace = "list" | "code" | "table";

function placeOf(node: LexicalNode): TabIndentPlace | null {
  if ($findMatchingParent(node, $isListItemNode)) return "list";
  if ($findMatchingParent(node, $isCodeNode)) return "code";
  if ($findMatchingParent(node, $isTableCellNode)) return "table";
  return null;
}

/** Where the selection is, if Tab indents there (a list, a code block, a table), as in Google Docs. */
export function $tabIndentPlaceAtSelection(): TabIndentPlace | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return null;
  return placeOf(selection.anchor.getNode()) ?? placeOf(selection.focus.getNode());
}

/**
 * Tab and Shift+Tab move focus out of the editor (no keyboard trap, WCAG 2.1.2) except where
 * they indent. Registered above the tab indentation handler: claiming the key without
 * `preventDefault` skips the indentation and leaves the browser's focus move in place. In a list
 * Tab indents the item wherever the caret is in it (the indentation handler would insert a tab
 * character unless the caret is at the item's start); code and tables keep that handler's way.
 */
export function registerTabFocus(editor: LexicalEditor): () => void {
  return editor.registerCommand(
    KEY_TAB_COMMAND,
    (event) => {
      const place = $tabIndentPlaceAtSelection();
      if (place === null) return true;
      if (place !== "list") return false;
      event.preventDefault();
      return editor.dispatchCommand(
        event.shiftKey ? OUTDENT_CONTENT_COMMAND : INDENT_CONTENT_COMMAND,
        undefined,
      );
    },
    COMMAND_PRIORITY_LOW,
  );
}
