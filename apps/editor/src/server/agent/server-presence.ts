import type { AgentPresence } from "@coauthor/types";
import { liveDocument } from "@/server/collab/sync-server";

// The server executor's presence (issue #39): while the server runs a run's calls, co-editors see
// "Coauthor · for <writer>" in the presence list and on the block it edited, through the live
// document's awareness — the server's own awareness state, which Hocuspocus sends to every copy
// (and the Redis extension to the other instances), as a tab's agent presence goes out.

/** How long the agent stays shown after a call (a run's next call comes sooner, and renews it). */
const SHOWN_FOR_MS = 8_000;
/** The colour the agent's dot is drawn in. */
const AGENT_COLOR = "#7c3aed";

/** Marks an awareness state as an agent's alone: the presence list shows no person for it. */
export const AGENT_ONLY_FIELD = "agentOnly";

const hideTimers = new Map<string, NodeJS.Timeout>();

/** Shows the agent working for `writerName` on `blockIds` of the document, for a few seconds. */
export function showServerAgent(documentId: string, writerName: string, blockIds: string[]): void {
  showAgent(documentId, `Coauthor · for ${writerName}`, {
    for: writerName,
    blockIds,
    removed: [],
    at: Date.now(),
  });
}

/** Shows the agent for `writerName` waiting its turn on this server (`ahead` calls before it). */
export function showServerAgentWaiting(documentId: string, writerName: string, ahead: number): void {
  const waiting = ahead === 0 ? "next in line" : `${ahead} ahead`;
  showAgent(documentId, `Coauthor · for ${writerName} · waiting for the server (${waiting})`, {
    for: writerName,
    blockIds: [],
    removed: [],
    at: Date.now(),
  });
}

function showAgent(documentId: string, name: string, agent: AgentPresence): void {
  const document = liveDocument(documentId);
  if (document === null) return;
  document.awareness.setLocalState({
    name,
    color: AGENT_COLOR,
    [AGENT_ONLY_FIELD]: true,
    agent,
  });
  clearTimeout(hideTimers.get(documentId));
  const timer = setTimeout(() => {
    hideTimers.delete(documentId);
    liveDocument(documentId)?.awareness.setLocalState(null);
  }, SHOWN_FOR_MS);
  timer.unref();
  hideTimers.set(documentId, timer);
}
