"use client";

import { createContext, type ReactNode, useContext, useState, useSyncExternalStore } from "react";
import { type AgentLiveState, type AgentLiveStore, createAgentLiveStore } from "./agent-live-store";

/** The live run state, shared by the editor and the assistant panel. */
export interface AgentLive {
  store: AgentLiveStore;
}

const AgentLiveContext = createContext<AgentLive | null>(null);

/** Provides one live store per document editor. */
export function AgentLiveProvider({ children }: { children: ReactNode }) {
  const [value] = useState<AgentLive>(() => ({
    store: createAgentLiveStore(),
  }));
  return <AgentLiveContext.Provider value={value}>{children}</AgentLiveContext.Provider>;
}

/** The document editor's live store (must be used under `AgentLiveProvider`). */
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
