import type { HocuspocusProvider } from "@hocuspocus/provider";
import type { RemovedRun } from "./agent-edit-changes";

/** The provider's awareness (a provider created with a Y.Doc always has one). */
export type Awareness = NonNullable<HocuspocusProvider["awareness"]>;

/**
 * What this copy tells the others about the agent run it hosts (an awareness field): whose run it
 * is, the blocks its last edit touched and when. Every copy marks those blocks and flashes them.
 */
export interface AgentPresence {
  /** The writer the agent works for. */
  for: string;
  blockIds: string[];
  /** Where the last edit removed blocks (every copy shows a trace there). */
  removed: RemovedRun[];
  /** When the last edit landed (ms since epoch): a new value means a new edit to flash. */
  at: number;
}

/** One person (or one person's agent) in the document, as the presence list shows them. */
export interface Participant {
  clientId: number;
  name: string;
  color: string;
  /** True for this copy's own entry. */
  self: boolean;
  agent: AgentPresence | null;
}

const AGENT_FIELD = "agent";
/** Most blocks one agent edit flashes in other copies. */
const MAX_MARKED_BLOCKS = 50;
/** Most removal traces, and the longest label, one agent edit shows in other copies. */
const MAX_TRACES = 10;
const MAX_LABEL = 120;

const isIdOrNull = (value: unknown) => value === null || typeof value === "string";

/** The removal traces in another client's claim: well-formed ones only, bounded (older clients send none). */
function removedRuns(claimed: unknown): RemovedRun[] {
  if (!Array.isArray(claimed)) return [];
  return claimed
    .filter((run): run is RemovedRun => {
      if (typeof run !== "object" || run === null) return false;
      const candidate = run as Record<string, unknown>;
      return (
        isIdOrNull(candidate.afterId) && isIdOrNull(candidate.beforeId) && typeof candidate.label === "string"
      );
    })
    .slice(0, MAX_TRACES)
    .map((run) => ({ afterId: run.afterId, beforeId: run.beforeId, label: run.label.slice(0, MAX_LABEL) }));
}

function isAgentPresence(value: unknown): value is AgentPresence {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.for === "string" &&
    typeof candidate.at === "number" &&
    Array.isArray(candidate.blockIds) &&
    candidate.blockIds.every((id) => typeof id === "string")
  );
}

/**
 * The participants of a document from its awareness states (written by Lexical's collaboration
 * binding: name and colour; and by this copy's agent: `agent`). Another client's state is input
 * from another browser: anything malformed is left out.
 */
export function participantsOf(awareness: Awareness): Participant[] {
  const participants: Participant[] = [];
  for (const [clientId, state] of awareness.getStates()) {
    const name = typeof state.name === "string" ? state.name.slice(0, 80) : "";
    const color =
      typeof state.color === "string" && /^[#a-z0-9(),.%\s-]{1,40}$/i.test(state.color) ? state.color : "";
    if (!name) continue;
    const claimed = state[AGENT_FIELD];
    // Bounded: another client's state decides how much this copy highlights and renders.
    const agent = isAgentPresence(claimed)
      ? {
          for: claimed.for.slice(0, 80),
          blockIds: claimed.blockIds.slice(0, MAX_MARKED_BLOCKS),
          removed: removedRuns((claimed as { removed?: unknown }).removed),
          at: claimed.at,
        }
      : null;
    participants.push({ clientId, name, color, self: clientId === awareness.clientID, agent });
  }
  return participants.sort((a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name));
}

/** Publishes (or, with null, withdraws) this copy's agent presence. */
export function setAgentPresence(awareness: Awareness, presence: AgentPresence | null): void {
  awareness.setLocalStateField(AGENT_FIELD, presence);
}
