"use client";

import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { mergeRegister } from "lexical";
import { useEffect } from "react";
import { registerAgentHighlight } from "../agent-highlight";
import { useAgentLive } from "../agent-live-context";
import { registerHistoryLock } from "../run-history";

/** Undo history on the shared history state, agent-edit highlights, and no undo/redo while a run edits. */
export function AgentEditsPlugin() {
  const [editor] = useLexicalComposerContext();
  const { historyState, store } = useAgentLive();
  useEffect(
    () =>
      mergeRegister(
        registerAgentHighlight(editor),
        registerHistoryLock(editor, () => store.getSnapshot().active),
      ),
    [editor, store],
  );
  return <HistoryPlugin externalHistoryState={historyState} />;
}
