"use client";

import { $findBlockById } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useAgentLive, useAgentLiveState } from "./agent-live-context";

/**
 * "Jump to the change": offered when an agent edit landed out of sight while the writer read or
 * typed elsewhere (the view did not move). Render inside the editor's scroll container.
 */
export function JumpToChange() {
  const [editor] = useLexicalComposerContext();
  const { store } = useAgentLive();
  const { offscreenChange } = useAgentLiveState();
  if (offscreenChange === null) return null;
  const jump = () => {
    const key = editor.read(() => $findBlockById(offscreenChange.blockId)?.getKey() ?? null);
    const element = key === null ? null : editor.getElementByKey(key);
    element?.scrollIntoView({ block: "center", behavior: "smooth" });
    store.update({ offscreenChange: null, following: true });
  };
  return (
    <div className="jump-to-change">
      <button type="button" className="jump-to-change-button" data-testid="jump-to-change" onClick={jump}>
        <span aria-hidden="true">{offscreenChange.direction === "up" ? "↑" : "↓"}</span> Jump to the agent's
        change
      </button>
    </div>
  );
}
