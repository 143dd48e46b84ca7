import { PIPELINE_AGENT_MARKER } from "../models/prompt-markers.ts";

// An agent's system prompt: the run's base prompt (the tools' guide, known once the run is open),
// then what the agent is. Built in two halves because the base is settled inside a step while the
// rest is decided by the workflow body.

/** What an agent is told besides the run's base prompt. */
export interface AgentPrompt {
  agentId: string;
  instructions: string;
  /** Which round of its loop (1 outside loops). */
  round: number;
  /** Whether it shares the run with other agents (then it is told so, by name and round). */
  inPipeline: boolean;
  /** What the earlier steps it asked for found, one line each. */
  given: string[];
}

export function agentSystem(base: string, prompt: AgentPrompt): string {
  return [
    base,
    "",
    ...(prompt.inPipeline
      ? [
          `${PIPELINE_AGENT_MARKER} ${prompt.agentId} (round ${prompt.round})`,
          "You are one agent of a pipeline; other agents work before and after you.",
        ]
      : []),
    prompt.instructions,
    ...(prompt.given.length > 0 ? ["", "What earlier steps found:", ...prompt.given] : []),
  ].join("\n");
}
