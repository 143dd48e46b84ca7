import { $commentRangeOf, type CommentRange } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import {
  $createRangeSelectionFromDom,
  $getSelection,
  $isRangeSelection,
  COMMAND_PRIORITY_EDITOR,
  createCommand,
  type LexicalEditor,
} from "lexical";
import { useCallback, useEffect, useState } from "react";

/** The text a writer chose to comment on: where it is, and what it read. */
export type CommentTarget = CommentRange & { quote: string };

/** Asks the comments view to start a thread on the given text (the toolbar's Comment, Ctrl+Alt+M). */
export const START_COMMENT_COMMAND = createCommand<CommentTarget>("START_COMMENT_COMMAND");

/** Asks the comments view to show one thread (a card in the margin was chosen). */
export const OPEN_COMMENT_THREAD_COMMAND = createCommand<string>("OPEN_COMMENT_THREAD_COMMAND");

/** Calls `onOpen` with the thread's id each time a writer opens a thread from the margin. */
function useCommentOpen(onOpen: (threadId: string) => void): void {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      editor.registerCommand(
        OPEN_COMMENT_THREAD_COMMAND,
        (threadId) => {
          onOpen(threadId);
          return true;
        },
        COMMAND_PRIORITY_EDITOR,
      ),
    [editor, onOpen],
  );
}

/** Calls `onStart` with the target each time a writer starts a comment (the panel opens its form). */
function useCommentStart(onStart: (target: CommentTarget) => void): void {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      editor.registerCommand(
        START_COMMENT_COMMAND,
        (target) => {
          onStart(target);
          return true;
        },
        COMMAND_PRIORITY_EDITOR,
      ),
    [editor, onStart],
  );
}
/**
 * The writer's current selection as a comment target, or null when nothing is selected. A
 * commenter's copy is read-only, where Lexical may keep no selection of its own: the page's
 * selection is read then.
 */
export function commentTargetOf(editor: LexicalEditor): CommentTarget | null {
  return editor.read(() => {
    const current = $getSelection();
    const selection =
      $isRangeSelection(current) && !current.isCollapsed()
        ? current
        : $createRangeSelectionFromDom(window.getSelection(), editor);
    return selection === null ? null : $commentRangeOf(selection);
  });
}

/**
 * What the panel's Comments view is asked for from the document: a new thread's form (the
 * toolbar's Comment, Ctrl+Alt+M) or one thread (a card in the margin). `show` opens the view.
 */
export function useCommentRequests(show: () => void): {
  /** The text a new thread is being written on, or null. */
  draft: CommentTarget | null;
  clearDraft: () => void;
  /** The thread a card opened (a new object each time: the same card again shows it again). */
  opened: { threadId: string } | null;
} {
  const [draft, setDraft] = useState<CommentTarget | null>(null);
  const [opened, setOpened] = useState<{ threadId: string } | null>(null);
  useCommentStart(
    useCallback(
      (target: CommentTarget) => {
        show();
        setDraft(target);
      },
      [show],
    ),
  );
  useCommentOpen(
    useCallback(
      (threadId: string) => {
        show();
        setOpened({ threadId });
      },
      [show],
    ),
  );
  return { draft, clearDraft: useCallback(() => setDraft(null), []), opened };
}
