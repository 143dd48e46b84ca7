import type { ChatMessage, FinishStatus, RunEventBody } from "@coauthor/types";

/** Arguments of one agent run (serializable: they are stored in the run's event log). */
export interface AgentWorkflowInput {
  userId: string;
  documentId: string;
  prompt: string;
  messages: ChatMessage[];
  modelId: string;
  selection?: { text: string; blockIds: string[] };
  limits: AgentLimits;
}

/** Per-run limits, resolved from env by the route that starts the run. */
export interface AgentLimits {
  maxSteps: number;
  maxToolCallsPerStep: number;
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
  usage?: { inputTokens: number; outputTokens: number };
  /** Tool calls the browser was asked to run. */
  toolCalls?: number;
  /** What the assistant said over the run (its turns' text, capped), for the stored conversation. */
  reply?: string;
}

/** A tool call the model asked for, as the workflow passes it around. */
export interface RequestedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export type { RunEventBody };
