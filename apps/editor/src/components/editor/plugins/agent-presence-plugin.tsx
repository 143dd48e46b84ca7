"use client";

import { $findBlockById } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";
import { createBlockFlasher, onAgentEdits } from "../agent-highlight";
import { useAgentLive } from "../agent-live-context";
import { type AgentPresence, participantsOf, setAgentPresence } from "../presence";

/** Attribute on the block an agent is editing (globals.css draws the marker and its label). */
const EDITING_ATTRIBUTE = "data-agent-editing";

/**
 * The agent as a participant everyone can see. While this copy hosts a run, its agent's presence
 * ("Coauthor · for <writer>" and the blocks of its last edit) goes out through awareness; every
 * copy flashes the blocks each agent edit touched and marks the block an agent is working on.
 * The writer's own copy also scrolls its agent's edits into view.
 */
export function AgentPresencePlugin({ writerName }: { writerName: string }) {
  const [editor] = useLexicalComposerContext();
  const { collab, store } = useAgentLive();

  useEffect(() => {
    const session = collab();
    const awareness = session.provider.awareness;
    if (!awareness) return;
    const flasher = createBlockFlasher(editor);
    const presence = (blockIds: string[], at: number): AgentPresence => ({ for: writerName, blockIds, at });

    const unregisterEdits = onAgentEdits(session.agentEditor, (blockIds) => {
      flasher.flash(blockIds, { scroll: true });
      setAgentPresence(awareness, presence(blockIds, Date.now()));
    });
    let wasActive = store.getSnapshot().active;
    const unsubscribe = store.subscribe(() => {
      const { active } = store.getSnapshot();
      if (active === wasActive) return;
      wasActive = active;
      setAgentPresence(awareness, active ? presence([], 0) : null);
    });

    // Other copies' agents: flash each new edit once, and mark the block each agent works on.
    const seen = new Map<number, number>();
    let marked: HTMLElement[] = [];
    const blockElement = (id: string): HTMLElement | null => {
      const key = editor.read(() => $findBlockById(id)?.getKey() ?? null);
      return key === null ? null : editor.getElementByKey(key);
    };
    const onAwareness = () => {
      for (const element of marked) element.removeAttribute(EDITING_ATTRIBUTE);
      marked = [];
      for (const { clientId, self, agent } of participantsOf(awareness)) {
        if (agent === null) continue;
        if (!self && agent.at > (seen.get(clientId) ?? 0)) flasher.flash(agent.blockIds, { scroll: false });
        seen.set(clientId, agent.at);
        const element = agent.blockIds[0] === undefined ? null : blockElement(agent.blockIds[0]);
        if (element === null) continue;
        element.setAttribute(EDITING_ATTRIBUTE, `Coauthor · for ${agent.for}`);
        marked.push(element);
      }
    };
    awareness.on("change", onAwareness);

    return () => {
      awareness.off("change", onAwareness);
      for (const element of marked) element.removeAttribute(EDITING_ATTRIBUTE);
      unregisterEdits();
      unsubscribe();
      flasher.dispose();
      setAgentPresence(awareness, null);
    };
  }, [collab, editor, store, writerName]);
  return null;
}
