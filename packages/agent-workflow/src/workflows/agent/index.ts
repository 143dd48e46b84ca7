import { getWorkflowMetadata } from "workflow";
import { runPipeline } from "../../pipelines/interpreter.ts";
import { pipelineArgsOf } from "./pipeline-args.ts";
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
  return runPipeline(pipelineArgsOf(runId, input));
}
