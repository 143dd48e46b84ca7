import type { HistoryState } from "@lexical/react/LexicalHistoryPlugin";
import {
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_CRITICAL,
  type EditorState,
  type LexicalEditor,
  mergeRegister,
  REDO_COMMAND,
  UNDO_COMMAND,
} from "lexical";

// One agent run = one undo step. Each agent edit is its own discrete update (its own history
// entry, which keeps a failed tool from leaving half an edit); at the end of the run the entries
// the run pushed are replaced by a single entry holding the state from before the run.

/** Where the undo history stood when a run started. */
export interface HistoryMark {
  undoLength: number;
  before: EditorState;
}

/** Notes the history position and document state at the start of a run. */
export function markHistory(editor: LexicalEditor, historyState: HistoryState): HistoryMark {
  return { undoLength: historyState.undoStack.length, before: editor.getEditorState() };
}

/**
 * Collapses everything pushed since `mark` into one undo entry that restores `mark.before`.
 * Works however the run ended (done, stopped, failed): only the edits that landed are covered.
 * Returns false (and changes nothing) when the document did not change since the mark.
 */
export function collapseHistorySince(
  editor: LexicalEditor,
  historyState: HistoryState,
  mark: HistoryMark,
): boolean {
  if (editor.getEditorState() === mark.before) return false;
  const { undoStack } = historyState;
  // The first edit may have merged into the writer's last entry instead of pushing one: the
  // explicit entry below still undoes exactly to the pre-run state.
  undoStack.splice(Math.min(mark.undoLength, undoStack.length), undoStack.length, {
    editor,
    editorState: mark.before,
  });
  historyState.redoStack = [];
  editor.dispatchCommand(CAN_UNDO_COMMAND, true);
  editor.dispatchCommand(CAN_REDO_COMMAND, false);
  return true;
}

/** While `isLocked()` (a run is editing), undo and redo do nothing, so they cannot tear the run's history apart. */
export function registerHistoryLock(editor: LexicalEditor, isLocked: () => boolean): () => void {
  return mergeRegister(
    editor.registerCommand(UNDO_COMMAND, isLocked, COMMAND_PRIORITY_CRITICAL),
    editor.registerCommand(REDO_COMMAND, isLocked, COMMAND_PRIORITY_CRITICAL),
  );
}
