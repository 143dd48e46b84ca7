"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useCallback, useEffect, useState } from "react";
import { commentTargetOf, START_COMMENT_COMMAND } from "./comment-selection";

/** Ctrl+Alt+M (⌘⌥M on a Mac), as in Google Docs. */
function isCommentShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && event.altKey && event.code === "KeyM";
}

/**
 * The toolbar's **Comment**: starts a thread on the selected text (also Ctrl+Alt+M, anywhere on
 * the page, since a commenter's read-only document takes no focus of its own).
 */
export function CommentButton() {
  const [editor] = useLexicalComposerContext();
  const [notice, setNotice] = useState<string | null>(null);

  const start = useCallback(() => {
    const target = commentTargetOf(editor);
    setNotice(target === null ? "Select the text to comment on first." : null);
    if (target !== null) editor.dispatchCommand(START_COMMENT_COMMAND, target);
  }, [editor]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isCommentShortcut(event)) return;
      event.preventDefault();
      start();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [start]);

  return (
    <span className="comment-button">
      <span className="toolbar-divider" />
      <button
        type="button"
        className="tool"
        data-testid="comment-button"
        aria-keyshortcuts="Control+Alt+M"
        // Keep the document's selection: the button must not take it away before it is read.
        onMouseDown={(event) => event.preventDefault()}
        onClick={start}
      >
        Comment
      </button>
      {notice ? (
        <span role="status" className="muted small">
          {notice}
        </span>
      ) : null}
    </span>
  );
}
