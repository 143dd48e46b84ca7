"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";
import { registerAgentHighlight } from "../agent-highlight";
import { useAgentLive } from "../agent-live-context";

/** Highlights the agent's edits as they land (undo is the collaboration plugin's Yjs undo manager). */
export function AgentEditsPlugin() {
  const [editor] = useLexicalComposerContext();
  const { collab } = useAgentLive();
  useEffect(() => registerAgentHighlight(editor, collab().agentEditor), [editor, collab]);
  return null;
}
