import {
  $createRangeSelectionFromDom,
  $getSelection,
  $isRangeSelection,
  $setSelection,
  getDOMSelection,
  type LexicalEditor,
} from "lexical";
import type * as Y from "yjs";

/**
 * Keeps the writer's caret where they put it when a change from elsewhere (a co-editor, the agent,
 * this browser's offline copy) arrives.
 *
 * The browser tells Lexical that the caret moved (a click, Ctrl+End, an arrow key) only in a later
 * `selectionchange` event. The binding applies a remote change with the selection Lexical last
 * knew — read back from this copy's awareness cursor — and writes it into the page, so a change
 * arriving between the move and that event put the caret back, and the next words landed in the
 * old place (a writer's line above the agent's paragraph instead of after it). Before the binding
 * sees a remote change, this reads the page's caret into Lexical, committed at once so that the
 * awareness cursor the binding reads back holds it too.
 */
export function keepCaretOnRemoteChange(editor: LexicalEditor, doc: Y.Doc): () => void {
  const readCaretFromPage = (transaction: Y.Transaction) => {
    // A local transaction is this copy's own edit (the binding's, an undo): Lexical made it.
    if (transaction.local || !editor.isEditable() || editor.isComposing()) return;
    const root = editor.getRootElement();
    const domSelection = getDOMSelection(root?.ownerDocument.defaultView ?? null);
    const anchor = domSelection?.anchorNode;
    if (!root || !domSelection || !anchor || !root.contains(anchor)) return;
    const moved = editor.read(() => {
      const current = $getSelection();
      // A node or table-cell selection is Lexical's own, not the page's caret: left as it is.
      if (current !== null && !$isRangeSelection(current)) return false;
      const inPage = $createRangeSelectionFromDom(domSelection, editor);
      return inPage !== null && !inPage.is(current);
    });
    if (!moved) return;
    editor.update(
      () => {
        const inPage = $createRangeSelectionFromDom(domSelection, editor);
        if (inPage !== null) $setSelection(inPage);
      },
      { discrete: true },
    );
  };
  // Emitted before any shared type's observers, so before the binding's.
  doc.on("beforeObserverCalls", readCaretFromPage);
  return () => doc.off("beforeObserverCalls", readCaretFromPage);
}
