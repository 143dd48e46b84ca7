import type { ModelMessage } from "ai";
import type { AgentLimits } from "../workflows/agent/types.ts";
import { agentSystem } from "./agent-system.ts";
import { openPipelineRun, type PipelineArgs } from "./interpreter.ts";
import { runTools } from "./open-run.ts";
import { agentPrompt, openingMessages, turnsLimits } from "./pipeline-run.ts";

/** What a planning agent's first step asks the model: the planner, then (without a plan) its first turn. */
export interface PlanningTurn {
  modelId: string;
  system: string;
  tools: string[];
  messages: ModelMessage[];
  limits: AgentLimits;
}

/**
 * The planning turn a run opens with, read off its input alone (the same functions the workflow
 * body and the first step use), or undefined when the run does not open with a planning agent.
 */
export function openingPlanningTurn(args: PipelineArgs): PlanningTurn | undefined {
  const run = openPipelineRun(args);
  const [first] = run.definition.steps;
  if (!first || !("agent" in first)) return undefined;
  const agent = run.agents.get(first.agent);
  if (!agent?.plan) return undefined;
  const { system, tools } = runTools(run.definition);
  return {
    modelId: agent.model ?? run.input.modelId,
    // The top-level list runs in round 1.
    system: agentSystem(system, agentPrompt(run, agent, first.inputs, 1)),
    tools: tools[agent.id] ?? [],
    messages: openingMessages(run, agent),
    limits: turnsLimits(run),
  };
}
