import type { PipelineAgent, PipelineDefinition } from "@coauthor/types";
import type { ModelMessage } from "ai";
import type { ToolCallAudience } from "../workflows/agent/steps/tool-call-event.ts";
import type {
  AgentLimits,
  AgentRunOutcome,
  AgentWorkflowInput,
  RunEventBody,
} from "../workflows/agent/types.ts";
import type { AgentPrompt } from "./agent-system.ts";
import type { RunStart } from "./open-run.ts";
import type { RunLedger } from "./run-ledger.ts";

// The state of one pipeline run in the workflow body, shared by the runners of its step kinds
// (workflow context: plain data, rebuilt by a replay from the steps' recorded results).

/** What an agent step left for later steps: its declared output, else its last words. */
export interface StepResult {
  output?: Record<string, unknown>;
  text: string;
}

/** Why a step did not complete: a failure a retry may cure, or the end of the whole run. */
export type StepEnd = { failure: { code: string; message: string } } | { end: AgentRunOutcome };

export interface PipelineRun {
  runId: string;
  input: AgentWorkflowInput;
  definition: PipelineDefinition;
  audience: ToolCallAudience;
  ledger: RunLedger;
  /** The run's opening, once a step has done it. */
  start?: RunStart;
  agents: Map<string, PipelineAgent>;
  /** Each finished agent step's result, by step id. */
  results: Record<string, StepResult>;
  /** The writer's earlier conversation (for agents with `context: conversation`). */
  history: ModelMessage[];
  /** The writer's message: the prompt, and the selection when there is one. */
  request: string;
  /** Whether the run is drawn as a tree: its agents are told they share it, and steps report. */
  inPipeline: boolean;
  /** The conversation of the last agent that had the writer's (what Continue resumes). */
  conversation?: ModelMessage[];
}

/** Queues a pipeline-step event, for runs the panel draws as a tree. */
export function report(
  run: PipelineRun,
  event: Omit<Extract<RunEventBody, { type: "pipeline-step" }>, "type">,
) {
  if (run.inPipeline) run.ledger.queue({ type: "pipeline-step", ...event });
}

/** The budget's limit the run has reached, if any (checked before every agent's model calls). */
export function overBudget(run: PipelineRun): AgentRunOutcome | undefined {
  const { budget } = run.definition;
  const { turnIndex, toolCalls, usage } = run.ledger;
  const reached =
    turnIndex >= budget.modelTurns
      ? `${budget.modelTurns} model turns`
      : toolCalls >= budget.toolCalls
        ? `${budget.toolCalls} tool calls`
        : usage.inputTokens + usage.outputTokens >= budget.tokens
          ? `${budget.tokens} tokens`
          : undefined;
  return reached
    ? { status: "limit", summary: `Stopped at the pipeline's budget of ${reached}.` }
    : undefined;
}

/** The run's limits for the next turns step, within what the budget has left. */
export function turnsLimits(run: PipelineRun): AgentLimits {
  const { limits } = run.input;
  const { budget } = run.definition;
  return {
    ...limits,
    maxTurnsPerStep: Math.min(limits.maxTurnsPerStep, budget.modelTurns - run.ledger.turnIndex),
    maxToolCallsPerRun: Math.min(limits.maxToolCallsPerRun, budget.toolCalls),
  };
}

/** What an agent is told besides the run's base prompt: its instructions and what it asked for. */
export function agentPrompt(
  run: PipelineRun,
  agent: PipelineAgent,
  inputs: string[] | undefined,
  round: number,
): AgentPrompt {
  const given = (inputs ?? [])
    .filter((id) => run.results[id] !== undefined)
    .map((id) => `- ${id}: ${JSON.stringify(run.results[id]?.output ?? run.results[id]?.text)}`);
  return { agentId: agent.id, instructions: agent.instructions, round, inPipeline: run.inPipeline, given };
}

/** An agent's conversation as it begins: the writer's earlier one when it asked for it, then the request. */
export function openingMessages(run: PipelineRun, agent: PipelineAgent): ModelMessage[] {
  return [...(agent.context === "conversation" ? run.history : []), { role: "user", content: run.request }];
}
