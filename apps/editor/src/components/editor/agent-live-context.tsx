"use client";

import { createContext, type ReactNode, useContext, useState, useSyncExternalStore } from "react";
import { type AgentLiveState, type AgentLiveStore, createAgentLiveStore } from "./agent-live-store";
import { CollabSession } from "./collab-session";

/** The live run state and the open copy's sync session, shared by the editor and the assistant panel. */
export interface AgentLive {
  store: AgentLiveStore;
  /** The open copy's sync session, created on first use (in the browser only: it opens a socket). */
  collab: () => CollabSession;
  /** The signed-in writer's name, as their decisions and presence show it. */
  writerName: string;
}

const AgentLiveContext = createContext<AgentLive | null>(null);

/** Provides one live store and one sync session per document editor. */
export function AgentLiveProvider({
  documentId,
  userId,
  writerName,
  initialState,
  children,
}: {
  documentId: string;
  userId: string;
  writerName: string;
  initialState: string | null;
  children: ReactNode;
}) {
  const [value] = useState<AgentLive>(() => {
    let session: CollabSession | null = null;
    return {
      store: createAgentLiveStore(),
      writerName,
      collab: () => {
        session ??= new CollabSession(documentId, userId, initialState);
        return session;
      },
    };
  });
  return <AgentLiveContext.Provider value={value}>{children}</AgentLiveContext.Provider>;
}

/** The document editor's live store and sync session (must be used under `AgentLiveProvider`). */
export function useAgentLive(): AgentLive {
  const value = useContext(AgentLiveContext);
  if (value === null) throw new Error("useAgentLive must be used inside AgentLiveProvider");
  return value;
}

/** The current live run state, re-rendering on change. */
export function useAgentLiveState(): AgentLiveState {
  const { store } = useAgentLive();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
