import { $isCodeNode } from "@lexical/code";
import { $isLinkNode } from "@lexical/link";
import { $isListNode, ListNode } from "@lexical/list";
import { $isHeadingNode, $isQuoteNode } from "@lexical/rich-text";
import { $getNearestNodeOfType, mergeRegister } from "@lexical/utils";
import {
  $getSelection,
  $isRangeSelection,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_LOW,
  type LexicalEditor,
  type TextFormatType,
} from "lexical";

/** Block types the toolbar can show and set. */
export type BlockType =
  | "paragraph"
  | "h1"
  | "h2"
  | "h3"
  | "h4"
  | "h5"
  | "h6"
  | "quote"
  | "code"
  | "bullet"
  | "number";

/** Inline formats with a toolbar button. */
export const TOOLBAR_FORMATS = [
  "bold",
  "italic",
  "underline",
  "strikethrough",
  "code",
] as const satisfies readonly TextFormatType[];
export type ToolbarFormat = (typeof TOOLBAR_FORMATS)[number];

/** What the toolbar reflects about the current selection and history. */
export interface ToolbarState {
  blockType: BlockType;
  formats: Record<ToolbarFormat, boolean>;
  isLink: boolean;
  canUndo: boolean;
  canRedo: boolean;
}

/** The toolbar state before the editor reports anything. */
export const INITIAL_TOOLBAR_STATE: ToolbarState = {
  blockType: "paragraph",
  formats: { bold: false, italic: false, underline: false, strikethrough: false, code: false },
  isLink: false,
  canUndo: false,
  canRedo: false,
};

function $readSelectionState(): Pick<ToolbarState, "blockType" | "formats" | "isLink"> | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return null;
  const anchor = selection.anchor.getNode();
  const block = anchor.getKey() === "root" ? anchor : anchor.getTopLevelElementOrThrow();
  let blockType: BlockType = "paragraph";
  if ($isListNode(block)) {
    const list = $getNearestNodeOfType(anchor, ListNode) ?? block;
    blockType = list.getListType() === "number" ? "number" : "bullet";
  } else if ($isHeadingNode(block)) blockType = block.getTag();
  else if ($isQuoteNode(block)) blockType = "quote";
  else if ($isCodeNode(block)) blockType = "code";
  const formats = { ...INITIAL_TOOLBAR_STATE.formats };
  for (const format of TOOLBAR_FORMATS) formats[format] = selection.hasFormat(format);
  const parent = anchor.getParent();
  const isLink = $isLinkNode(anchor) || (parent !== null && $isLinkNode(parent));
  return { blockType, formats, isLink };
}

/** Reports toolbar state changes (selection formats, block type, undo/redo availability); returns the unregister function. */
export function registerToolbarState(
  editor: LexicalEditor,
  onChange: (update: (previous: ToolbarState) => ToolbarState) => void,
): () => void {
  return mergeRegister(
    editor.registerUpdateListener(({ editorState }) => {
      const next = editorState.read($readSelectionState);
      if (next) onChange((previous) => ({ ...previous, ...next }));
    }),
    editor.registerCommand(
      CAN_UNDO_COMMAND,
      (canUndo) => {
        onChange((previous) => ({ ...previous, canUndo }));
        return false;
      },
      COMMAND_PRIORITY_LOW,
    ),
    editor.registerCommand(
      CAN_REDO_COMMAND,
      (canRedo) => {
        onChange((previous) => ({ ...previous, canRedo }));
        return false;
      },
      COMMAND_PRIORITY_LOW,
    ),
  );
}
