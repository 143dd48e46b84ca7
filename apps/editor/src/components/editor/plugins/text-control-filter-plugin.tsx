"use client";

import { registerTextControlFilter } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";

/**
 * Removes control characters no document may hold from what the writer types or pastes, so an
 * ordinary edit never meets the sync server's refusal of them (it would stop this copy saving).
 */
export function TextControlFilterPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(() => registerTextControlFilter(editor), [editor]);
  return null;
}
