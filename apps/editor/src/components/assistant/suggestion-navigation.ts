import { $getBlockId, $getBlockSuggestion } from "@coauthor/tools";
import { $getRoot, $getSelection, $isRangeSelection, type LexicalEditor } from "lexical";

/**
 * The block to go to for the next (or previous) pending suggestion from the caret, in document
 * order, wrapping around at the end; the caret's own suggestion is skipped, so pressing again moves
 * on. Null when nothing is pending.
 */
export function adjacentSuggestionBlock(
  editor: LexicalEditor,
  direction: "next" | "previous",
): string | null {
  return editor.read(() => {
    const children = $getRoot().getChildren();
    // The first block of each suggestion (a replacement is two blocks), with where it is.
    const starts: Array<{ index: number; blockId: string; suggestionId: string }> = [];
    const seen = new Set<string>();
    children.forEach((block, index) => {
      const suggestion = $getBlockSuggestion(block);
      const blockId = $getBlockId(block);
      if (suggestion === null || blockId === null || seen.has(suggestion.id)) return;
      seen.add(suggestion.id);
      starts.push({ index, blockId, suggestionId: suggestion.id });
    });
    if (starts.length === 0) return null;
    const selection = $getSelection();
    const caretBlock = $isRangeSelection(selection) ? selection.anchor.getNode().getTopLevelElement() : null;
    const caret = caretBlock === null ? -1 : children.findIndex((block) => block.is(caretBlock));
    const own = caretBlock === null ? null : ($getBlockSuggestion(caretBlock)?.id ?? null);
    const others = starts.filter((start) => start.suggestionId !== own);
    const candidates = others.length > 0 ? others : starts;
    const found =
      direction === "next"
        ? (candidates.find((start) => start.index > caret) ?? candidates[0])
        : ([...candidates].reverse().find((start) => start.index < caret) ?? candidates.at(-1));
    return found?.blockId ?? null;
  });
}
