"use client";

import { registerBlockIds } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";

/** Keeps a stable id on every top-level block (the agent's tools address blocks by it). */
export function BlockIdsPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(() => registerBlockIds(editor), [editor]);
  return null;
}
