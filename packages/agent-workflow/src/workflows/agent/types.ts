import type { ChatMessage, FinishStatus, PipelineDefinition, RunEventBody } from "@coauthor/types";
import type { ModelMessage } from "ai";
import type { TokenUsage } from "../../usage.ts";

/** Arguments of one agent run (serializable: they are stored in the run's event log). */
export interface AgentWorkflowInput {
  userId: string;
  documentId: string;
  prompt: string;
  messages: ChatMessage[];
  modelId: string;
  selection?: { text: string; blockIds: string[] };
  limits: AgentLimits;
  /**
   * A continued run: the whole conversation of the run it continues (tool calls and results
   * included). It replaces `messages`; `prompt` follows it as the writer's new message.
   */
  continues?: { runId: string; conversation: ModelMessage[] };
  /** Run this pipeline (a recipe) instead of the default plan → execute → reflect agent. */
  pipeline?: { recipeId: string; definition: PipelineDefinition };
  /**
   * The route that started the run begins its first step's work itself (the local world:
   * run-start-early.ts). A first attempt of that step may then find progress saved: by the route's
   * work, in a process that stopped before the engine delivered the step.
   */
  earlyStart?: boolean;
}

/** Per-run limits, resolved from env by the route that starts the run. */
export interface AgentLimits {
  /** Steps a plan may have (the planner's and every revision's). */
  maxPlanSteps: number;
  /** Model turns within one plan step, or in a run without a plan; then the run ends at its limit. */
  maxTurnsPerStep: number;
  /** Tool calls run per model turn; the model is told the rest were not run. */
  maxToolCallsPerTurn: number;
  /** Tool calls over the whole run; then the run ends at its limit. */
  maxToolCallsPerRun: number;
  toolDeadlineMs: number;
  /** Time limit of one model call (a turn, the planner, a reflection). */
  modelStepTimeoutMs: number;
  /** How often the plan may be revised after a reflection. */
  maxReplans: number;
  /** Whole-run timeout: the run ends with `finish: timeout` when it passes. */
  runTimeoutMs: number;
}

/** How the run ended (the workflow's return value). */
export interface AgentRunOutcome {
  status: FinishStatus | "error";
  summary?: string;
  code?: string;
  /** Tokens the model reported, summed over the run's model turns. */
  usage?: TokenUsage;
  /** Tool calls the browser was asked to run. */
  toolCalls?: number;
  /** What the assistant said over the run (its turns' text, capped), for the stored conversation. */
  reply?: string;
  /** A run that can be continued (it ended at a limit or its time limit): its whole conversation. */
  conversation?: ModelMessage[];
}

/** A tool call the model asked for, as the workflow passes it around. */
export interface RequestedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export type { RunEventBody };
