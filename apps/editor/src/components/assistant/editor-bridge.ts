import { $getBlockId } from "@coauthor/tools";
import { $getSelection, $isRangeSelection, type LexicalEditor } from "lexical";
import type { RunRequest } from "./run-client";

// Editor-specific side of the assistant: the selection sent as context with a prompt.

/** The selected text and the ids of the blocks it touches, or undefined when nothing is selected. */
export function readSelectionContext(editor: LexicalEditor): RunRequest["selection"] {
  return editor.getEditorState().read(() => {
    const selection = $getSelection();
    if (!$isRangeSelection(selection) || selection.isCollapsed()) return undefined;
    const text = selection.getTextContent();
    if (!text.trim()) return undefined;
    const blockIds = new Set<string>();
    for (const node of selection.getNodes()) {
      const block = node.getTopLevelElement();
      const id = block ? $getBlockId(block) : null;
      if (id) blockIds.add(id);
    }
    return { text: text.slice(0, 50_000), blockIds: [...blockIds] };
  });
}
