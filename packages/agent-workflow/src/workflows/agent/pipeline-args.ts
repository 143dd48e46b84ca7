import type { ModelMessage } from "ai";
import { defaultPipeline } from "../../pipelines/default-pipeline.ts";
import type { PipelineArgs } from "../../pipelines/interpreter.ts";
import type { AgentWorkflowInput } from "./types.ts";

/**
 * What a run's pipeline starts from, all of it read off the run's input: the recipe the writer
 * picked or the built-in planning agent, the writer's conversation and message, who runs its tool
 * calls. Plain and deterministic: the workflow body calls it, and so does the route that starts the
 * run, to begin its first step's work before the engine delivers that step (run-start-early.ts).
 */
export function pipelineArgsOf(runId: string, input: AgentWorkflowInput): PipelineArgs {
  const selection = input.selection?.text
    ? `\n\nThe writer's selection (blocks ${input.selection.blockIds.join(", ")}):\n${input.selection.text}`
    : "";
  // A continued run picks up the conversation of the run it continues, tool calls included.
  const history: ModelMessage[] =
    input.continues?.conversation ??
    input.messages.map((m): ModelMessage => ({ role: m.role, content: m.content }));
  return {
    runId,
    input,
    definition: input.pipeline?.definition ?? defaultPipeline(input.limits),
    history,
    request: input.prompt + selection,
    audience: {
      runId,
      userId: input.userId,
      documentId: input.documentId,
      deadlineMs: input.limits.toolDeadlineMs,
    },
  };
}
