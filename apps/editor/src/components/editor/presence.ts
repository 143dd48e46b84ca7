import { type AgentPresence, agentPresenceSchema, participantIdentitySchema } from "@coauthor/types";
import type { HocuspocusProvider } from "@hocuspocus/provider";

export type { AgentPresence };

/** The provider's awareness (a provider created with a Y.Doc always has one). */
export type Awareness = NonNullable<HocuspocusProvider["awareness"]>;

/** One person (or one person's agent) in the document, as the presence list shows them. */
export interface Participant {
  clientId: number;
  name: string;
  color: string;
  /** True for this copy's own entry. */
  self: boolean;
  /** False for an agent the server runs (its state names no person: only the agent is shown). */
  person: boolean;
  agent: AgentPresence | null;
}

const AGENT_FIELD = "agent";
/** Set by the server executor's presence (server/agent/server-presence.ts): an agent with no person. */
const AGENT_ONLY_FIELD = "agentOnly";

/**
 * The participants of a document from its awareness states (written by Lexical's collaboration
 * binding: name and colour; and by this copy's agent: `agent`). Another client's state is input
 * from another browser: anything malformed is left out.
 */
export function participantsOf(awareness: Awareness): Participant[] {
  const participants: Participant[] = [];
  for (const [clientId, state] of awareness.getStates()) {
    const identity = participantIdentitySchema.safeParse(state);
    if (!identity.success) continue;
    // Bounded by the schema: another client's state decides how much this copy highlights and renders.
    const agent = agentPresenceSchema.safeParse(state[AGENT_FIELD]);
    participants.push({
      clientId,
      ...identity.data,
      self: clientId === awareness.clientID,
      person: state[AGENT_ONLY_FIELD] !== true,
      agent: agent.success ? agent.data : null,
    });
  }
  return participants.sort((a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name));
}

/** Publishes (or, with null, withdraws) this copy's agent presence. */
export function setAgentPresence(awareness: Awareness, presence: AgentPresence | null): void {
  awareness.setLocalStateField(AGENT_FIELD, presence);
}
