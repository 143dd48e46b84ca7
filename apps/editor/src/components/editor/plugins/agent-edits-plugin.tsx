"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";
import { registerAgentHighlight } from "../agent-highlight";

/** Highlights the agent's edits as they land (undo is the collaboration plugin's Yjs undo manager). */
export function AgentEditsPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(() => registerAgentHighlight(editor), [editor]);
  return null;
}
