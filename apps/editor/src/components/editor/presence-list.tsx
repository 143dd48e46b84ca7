"use client";

import { useCallback, useRef, useSyncExternalStore } from "react";
import { useAgentLive } from "./agent-live-context";
import { type Participant, participantsOf } from "./presence";

const NOBODY: Participant[] = [];

/** Who is in the document now: people (with their cursor colour) and the agents working for them. */
export function PresenceList() {
  const { collab } = useAgentLive();
  // Awareness changes often (cursor moves); the list re-renders only when what it shows changes.
  const cache = useRef<{ key: string; participants: Participant[] }>({ key: "", participants: NOBODY });
  const read = useCallback((): Participant[] => {
    const awareness = collab().provider.awareness;
    if (!awareness) return NOBODY;
    const participants = participantsOf(awareness);
    const key = JSON.stringify(participants.map((p) => [p.clientId, p.name, p.color, p.agent?.for ?? null]));
    if (key !== cache.current.key) cache.current = { key, participants };
    return cache.current.participants;
  }, [collab]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      const awareness = collab().provider.awareness;
      awareness?.on("change", onChange);
      return () => awareness?.off("change", onChange);
    },
    [collab],
  );
  const participants = useSyncExternalStore(subscribe, read, () => NOBODY);
  // One agent per writer: while a run passes from a tab to the server (or a closed tab's state
  // has not timed out yet), two copies can show the same writer's agent for a moment.
  const agentsShown = new Set<string>();
  const firstAgentFor = (participant: Participant) => {
    if (!participant.agent || agentsShown.has(participant.agent.for)) return false;
    agentsShown.add(participant.agent.for);
    return true;
  };
  return (
    <ul className="presence-list" data-testid="presence-list" aria-label="In this document">
      {participants.flatMap((participant) => [
        participant.person ? (
          <li key={participant.clientId} className="presence-person" data-testid="presence-person">
            <span className="presence-dot" style={{ background: participant.color }} aria-hidden="true" />
            {participant.self ? `${participant.name} (you)` : participant.name}
          </li>
        ) : null,
        firstAgentFor(participant) && participant.agent ? (
          <li key={`${participant.clientId}-agent`} className="presence-agent" data-testid="presence-agent">
            Coauthor · for {participant.agent.for}
          </li>
        ) : null,
      ])}
    </ul>
  );
}
