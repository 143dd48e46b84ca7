"use client";

import { $findBlockById } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";
import type { RemovedRun } from "../agent-edit-changes";
import { createBlockFlasher, onAgentEdits } from "../agent-highlight";
import { useAgentLive } from "../agent-live-context";
import { createEditFollower } from "../edit-follower";
import { type AgentPresence, participantsOf, setAgentPresence } from "../presence";
import { createRemovalTraces } from "../removal-traces";

/** Attribute on the block an agent is editing (globals.css draws the marker and its label). */
const EDITING_ATTRIBUTE = "data-agent-editing";

/**
 * The agent as a participant everyone can see. While this copy hosts a run, its agent's presence
 * ("Coauthor · for <writer>" and the blocks of its last edit) goes out through awareness; every
 * copy flashes the blocks each agent edit changed and marks the block an agent is working on.
 * Every copy shows where an agent removed blocks; the writer's own copy also follows its agent's edits
 * (or, while the writer reads or types elsewhere, offers a jump to them: edit-follower.ts).
 */
export function AgentPresencePlugin({ writerName }: { writerName: string }) {
  const [editor] = useLexicalComposerContext();
  const { collab, store } = useAgentLive();

  useEffect(() => {
    const session = collab();
    const awareness = session.provider.awareness;
    if (!awareness) return;
    const flasher = createBlockFlasher(editor);
    const follower = createEditFollower(editor, store);
    const traces = createRemovalTraces(store);
    const presence = (blockIds: string[], at: number, removed: RemovedRun[] = []): AgentPresence => ({
      for: writerName,
      blockIds,
      removed,
      at,
    });
    const elementOf = (id: string): HTMLElement | null => {
      const key = editor.read(() => $findBlockById(id)?.getKey() ?? null);
      return key === null ? null : editor.getElementByKey(key);
    };

    const unregisterEdits = onAgentEdits(session.agentEditor, ({ changedIds, removed }) => {
      flasher.flash(changedIds);
      traces.add(removed);
      // What to show: the first changed block, else the block beside the first removal.
      const shownId = changedIds[0] ?? removed[0]?.afterId ?? removed[0]?.beforeId;
      const shown = shownId ? elementOf(shownId) : null;
      if (shown !== null && shownId) follower.reveal(shown, shownId);
      setAgentPresence(awareness, presence(changedIds, Date.now(), removed));
    });
    let wasActive = store.getSnapshot().active;
    const unsubscribe = store.subscribe(() => {
      const { active } = store.getSnapshot();
      if (active === wasActive) return;
      wasActive = active;
      if (active) follower.resume();
      setAgentPresence(awareness, active ? presence([], 0) : null);
    });

    // Other copies' agents: flash each new edit once, and mark the block each agent works on.
    const seen = new Map<number, number>();
    let marked: HTMLElement[] = [];
    const onAwareness = () => {
      for (const element of marked) element.removeAttribute(EDITING_ATTRIBUTE);
      marked = [];
      for (const { clientId, self, agent } of participantsOf(awareness)) {
        if (agent === null) continue;
        if (!self && agent.at > (seen.get(clientId) ?? 0)) {
          flasher.flash(agent.blockIds);
          traces.add(agent.removed);
        }
        seen.set(clientId, agent.at);
        const element = agent.blockIds[0] === undefined ? null : elementOf(agent.blockIds[0]);
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
      follower.dispose();
      traces.dispose();
      setAgentPresence(awareness, null);
    };
  }, [collab, editor, store, writerName]);
  return null;
}
