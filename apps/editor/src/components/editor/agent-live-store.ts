// Live state of an agent run that the editor side shows but Lexical does not hold: whether a run
// is editing and the preview of an insert the model is still writing.

/** Where a previewed insert will land, as the tool's `position` says (the end until the model has said). */
export type PreviewPosition = { at: "start" | "end" } | { at: "before" | "after"; blockId: string };

/** Text the model is still writing for a tool call, shown in place before the edit lands. */
export interface InsertPreview {
  toolCallId: string;
  toolName: string;
  text: string;
  position: PreviewPosition;
}

/** A brief mark where an agent edit removed blocks ("3 paragraphs removed"), by a surviving neighbour. */
export interface RemovalTrace {
  id: number;
  position: PreviewPosition;
  label: string;
}

/** An agent edit that landed out of sight while the writer was reading or typing elsewhere. */
export interface OffscreenChange {
  blockId: string;
  direction: "up" | "down";
}

/** What the editor shows about the run in flight. */
export interface AgentLiveState {
  active: boolean;
  preview: InsertPreview | null;
  traces: RemovalTrace[];
  offscreenChange: OffscreenChange | null;
  /** Whether the view follows the agent's edits (edit-follower.ts); "Jump to the change" turns it back on. */
  following: boolean;
}

/** A tiny external store (for `useSyncExternalStore`) shared by the editor and the assistant panel. */
export interface AgentLiveStore {
  getSnapshot: () => AgentLiveState;
  subscribe: (listener: () => void) => () => void;
  update: (change: Partial<AgentLiveState>) => void;
}

/** Creates an idle store: no run, no preview, no traces. */
export function createAgentLiveStore(): AgentLiveStore {
  let state: AgentLiveState = {
    active: false,
    preview: null,
    traces: [],
    offscreenChange: null,
    following: true,
  };
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update: (change) => {
      state = { ...state, ...change };
      for (const listener of listeners) listener();
    },
  };
}
