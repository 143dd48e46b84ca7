// Server-only entry: what route handlers need to start, resume and cancel runs.

export type {
  AgentStore,
  ClaimOutcome,
  SavedProgress,
  StoredToolResult,
  ToolResultClaim,
} from "./agent-store.ts";
export { type AgentConfiguration, configureAgent } from "./configure-agent.ts";
export { armedDeadlines, armRunTimeout, disarmRun } from "./deadlines.ts";
export * from "./index.ts";
export { subscribeLive } from "./live/frames.ts";
export { createFrameSequencer } from "./live/sequencer.ts";
export * from "./models/index.ts";
export { type ParsedPipeline, parsePipeline } from "./pipelines/definition.ts";
export { type DefinitionLimitProblem, definitionLimitProblem } from "./pipelines/definition-limits.ts";
export { beginRunStart } from "./pipelines/opening-step.ts";
export { BUILT_IN_RECIPES, type BuiltInRecipe } from "./pipelines/recipes.ts";
export { trackedRuns } from "./run-control.ts";
export { RUN_TIMEOUT_REASON } from "./run-outcomes.ts";
export { configureRunSignals, notifyStop, type RunSignalTransport, receiveRunSignal } from "./run-signals.ts";
export type { ServerToolCall, ServerToolExecutor } from "./server-tools.ts";
export {
  configureStepLeases,
  type StepLeaseStore,
  stepLeaseTiming,
} from "./step-lease.ts";
export { toolPolicy } from "./tool-policy.ts";
export { recordToolResult } from "./tool-results.ts";
export { agentWorkflow } from "./workflows/agent/index.ts";
export { abandonRunStart } from "./workflows/agent/steps/run-start-early.ts";
export type { AgentLimits, AgentRunOutcome, AgentWorkflowInput } from "./workflows/agent/types.ts";
export { naiveHookToken } from "./workflows/bench-naive/hook-token-name.ts";
export { naiveLoopWorkflow } from "./workflows/bench-naive/index.ts";
