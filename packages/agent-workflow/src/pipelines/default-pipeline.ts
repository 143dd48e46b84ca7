import type { PipelineDefinition } from "@coauthor/types";
import type { AgentLimits } from "../workflows/agent/types.ts";

/** The default agent's id (the only agent of the built-in pipeline). */
export const DEFAULT_AGENT_ID = "agent";

/**
 * The pipeline a run without a recipe runs: one planning agent with every tool the writer's role
 * allows and the writer's conversation. Its budget is the run's own limits, so the limits the
 * operator set are the only ones a writer meets.
 */
export function defaultPipeline(limits: AgentLimits): PipelineDefinition {
  return {
    version: 1,
    name: "Agent",
    agents: [
      {
        id: DEFAULT_AGENT_ID,
        instructions: "Do what the writer asks, in the document when it is a task for the document.",
        tools: "write",
        context: "conversation",
        plan: true,
      },
    ],
    steps: [{ agent: DEFAULT_AGENT_ID }],
    budget: {
      modelTurns: limits.maxPlanSteps * limits.maxTurnsPerStep + 1,
      toolCalls: limits.maxToolCallsPerRun,
      tokens: Number.MAX_SAFE_INTEGER,
      wallTimeMs: limits.runTimeoutMs,
    },
  };
}
