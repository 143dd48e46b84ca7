"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";
import { registerTabFocus } from "../tab-focus";

/** Tab leaves the editor except inside lists, code and tables, where it indents. */
export function TabFocusPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(() => registerTabFocus(editor), [editor]);
  return null;
}
