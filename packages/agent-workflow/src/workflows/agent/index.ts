import type { ModelMessage } from "ai";
import { getWorkflowMetadata } from "workflow";
import { defaultPipeline } from "../../pipelines/default-pipeline.ts";
import { runPipeline } from "../../pipelines/interpreter.ts";
import type { AgentRunOutcome, AgentWorkflowInput } from "./types.ts";

export type { AgentLimits, AgentRunOutcome, AgentWorkflowInput } from "./types.ts";

/**
 * The agent run. Workflow context: deterministic orchestration only — every I/O (model, signing,
 * stream writes) happens in a step. A run is a pipeline: the recipe the writer picked, or the
 * built-in one of a single planning agent (plan → execute → reflect).
 */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunOutcome> {
  "use workflow";
  const { workflowRunId: runId } = getWorkflowMetadata();
  // No hook for Stop or the run time limit: a resumed hook replays the workflow, and a replay
  // queues the running step again. Both reach the running step directly (its signal in this
  // process, the stored run status from any instance, its own copy of the deadline).
  const selection = input.selection?.text
    ? `\n\nThe writer's selection (blocks ${input.selection.blockIds.join(", ")}):\n${input.selection.text}`
    : "";
  // A continued run picks up the conversation of the run it continues, tool calls included.
  const history: ModelMessage[] =
    input.continues?.conversation ??
    input.messages.map((m): ModelMessage => ({ role: m.role, content: m.content }));
  return runPipeline({
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
  });
}
