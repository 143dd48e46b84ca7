import { z } from "zod";
import { toolResultFactsSchema } from "./tool-facts.ts";

/** Agent or chat: what a run may do to the document. */
export const runModeSchema = z.enum(["agent", "chat"]);
export type RunMode = z.infer<typeof runModeSchema>;

/**
 * A run's status, the one vocabulary of the workflow's outcome, the database column (a checked
 * column) and the panel: `running`, then how it finished, or `failed` (an error ended it).
 */
export const RUN_STATUSES = ["running", "done", "cancelled", "limit", "timeout", "failed"] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * How a run ended normally: its work is done, the writer stopped it, it reached a limit of model
 * turns or tool calls (`limit`: the writer may continue it), or its time ran out.
 */
export const finishStatusSchema = runStatusSchema.extract(["done", "cancelled", "limit", "timeout"]);
export type FinishStatus = z.infer<typeof finishStatusSchema>;
/** Statuses a run can still continue from (in a new run, with the same conversation). */
export const CONTINUABLE_STATUSES: readonly RunStatus[] = ["limit", "timeout"];

/** Tokens a run (or a step of it) used; the cache figures where the provider reports them. */
export const tokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Input served from the provider's prompt cache (billed cheaper). */
  cachedInputTokens: z.number().optional(),
  /** Input written to the provider's prompt cache (Anthropic bills it dearer). */
  cacheWriteTokens: z.number().optional(),
});
export type TokenUsageFigures = z.infer<typeof tokenUsageSchema>;

const base = {
  runId: z.string().min(1),
  id: z.number().int().nonnegative(),
  /** When the server wrote the event (epoch ms): the run log's timings per step and tool call. */
  at: z.number().optional(),
};

export const runStartEventSchema = z.object({
  ...base,
  type: z.literal("run-start"),
  documentId: z.string(),
  mode: runModeSchema,
  model: z.string(),
});

export const textDeltaEventSchema = z.object({
  ...base,
  type: z.literal("text-delta"),
  messageId: z.string(),
  delta: z.string(),
});

export const planStepStatusSchema = z.enum(["pending", "running", "done", "failed"]);

export const planEventSchema = z.object({
  ...base,
  type: z.literal("plan"),
  goal: z.string(),
  steps: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      status: planStepStatusSchema,
      successCriteria: z.string().optional(),
      /** Ids of the earlier steps this one needs. */
      dependsOn: z.array(z.string()).optional(),
    }),
  ),
  /** A revised plan: why it changed (the reflection's reason). */
  reason: z.string().optional(),
});

export const stepEventSchema = z.object({
  ...base,
  type: z.literal("step"),
  stepId: z.string(),
  status: z.enum(["running", "done", "failed"]),
  description: z.string().optional(),
  /** Tokens the model used for this step (on `done` / `failed`). */
  usage: tokenUsageSchema.optional(),
});

/** One node of a pipeline's step tree, as the panel draws it. */
export const pipelineNodeSchema = z.object({
  /** Where the step sits, e.g. `0`, `0.loop.1`, `1.parallel.2`: the node's key in every event. */
  path: z.string(),
  kind: z.enum(["agent", "sequence", "parallel", "branch", "loop"]),
  /** The step's id (an agent step's defaults to its agent's). */
  stepId: z.string().optional(),
  /** Agent steps: which agent. */
  agent: z.string().optional(),
  /** The node's parent's path (absent at the top). */
  parent: z.string().optional(),
});
export type PipelineNode = z.infer<typeof pipelineNodeSchema>;

/** A pipeline run starts: its name and step tree. */
export const pipelineEventSchema = z.object({
  ...base,
  type: z.literal("pipeline"),
  name: z.string(),
  nodes: z.array(pipelineNodeSchema),
});

export const pipelineStepStatusSchema = z.enum(["running", "done", "failed", "skipped", "retrying"]);

/** A pipeline step changes state: starts (each loop round, each attempt), ends, is retried. */
export const pipelineStepEventSchema = z.object({
  ...base,
  type: z.literal("pipeline-step"),
  path: z.string(),
  status: pipelineStepStatusSchema,
  /** Loops: the round (1-based). */
  iteration: z.int().min(1).optional(),
  /** Retries: the attempt (1-based), the wait before the next one and why. */
  attempt: z.int().min(1).optional(),
  delayMs: z.int().min(0).optional(),
  error: z.string().optional(),
  /** Branches: the case taken (its index; `else` = -1), or none (`skipped`). */
  taken: z.int().min(-1).optional(),
  /** Agent steps: the structured output, once done. */
  output: z.unknown().optional(),
});

export const toolInputDeltaEventSchema = z.object({
  ...base,
  type: z.literal("tool-input-delta"),
  toolCallId: z.string(),
  toolName: z.string(),
  delta: z.string(),
});

export const toolCallEventSchema = z.object({
  ...base,
  type: z.literal("tool-call"),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  hookToken: z.string(),
  /** Epoch milliseconds by which the result must be posted. */
  deadline: z.number(),
});

export const toolResultEventSchema = z.object({
  ...base,
  type: z.literal("tool-result"),
  toolCallId: z.string(),
  ok: z.boolean(),
  summary: z.string(),
  /** What a successful call did (counts, the first block ids), for the activity sentence and its link. */
  facts: toolResultFactsSchema.optional(),
});

export const finishEventSchema = z.object({
  ...base,
  type: z.literal("finish"),
  status: finishStatusSchema,
  summary: z.string().optional(),
  /** Tokens the model used over the whole run. */
  usage: tokenUsageSchema.optional(),
});

export const errorEventSchema = z.object({
  ...base,
  type: z.literal("error"),
  code: z.string(),
  message: z.string(),
  recoverable: z.boolean(),
});

export const heartbeatEventSchema = z.object({
  ...base,
  type: z.literal("heartbeat"),
  ts: z.number(),
});

/** Every event of the agent run stream (spec §3.1), discriminated on `type`. */
export const runEventSchema = z.discriminatedUnion("type", [
  runStartEventSchema,
  textDeltaEventSchema,
  planEventSchema,
  stepEventSchema,
  pipelineEventSchema,
  pipelineStepEventSchema,
  toolInputDeltaEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  finishEventSchema,
  errorEventSchema,
  heartbeatEventSchema,
]);
export type RunEvent = z.infer<typeof runEventSchema>;
export type RunEventType = RunEvent["type"];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
/** An event before the stream writer assigns its `runId` and `id`. */
export type RunEventBody = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "runId" | "id" | "at">
    : never
  : never;

/** True when the event is the last one of a run. */
export function isTerminalEvent(event: RunEvent): boolean {
  return event.type === "finish" || (event.type === "error" && !event.recoverable);
}
