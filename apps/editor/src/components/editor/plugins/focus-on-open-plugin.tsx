"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useLexicalEditable } from "@lexical/react/useLexicalEditable";
import { useEffect, useRef } from "react";

/**
 * Puts the caret in the document once it first becomes editable (after its first sync), so a
 * new or opened document is ready to type in; never takes focus the writer already put elsewhere.
 */
export function FocusOnOpenPlugin() {
  const [editor] = useLexicalComposerContext();
  const editable = useLexicalEditable();
  const done = useRef(false);
  // An effect, not an editable listener: it runs once the content element is editable in the DOM.
  useEffect(() => {
    if (!editable || done.current) return;
    done.current = true;
    if (document.activeElement === null || document.activeElement === document.body) editor.focus();
  }, [editor, editable]);
  return null;
}
