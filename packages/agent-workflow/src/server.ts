// Server-only entry: what route handlers need to start, resume and cancel runs.

export { armedDeadlines, armRunTimeout, armToolDeadline, disarmRun } from "./deadlines.ts";
export { naiveHookToken, RUN_TIMEOUT_REASON } from "./hook-names.ts";
export * from "./index.ts";
export * from "./models/index.ts";
export { resumeToolHook } from "./resume-tool-hook.ts";
export { agentWorkflow } from "./workflows/agent/index.ts";
export type { AgentLimits, AgentRunOutcome, AgentWorkflowInput } from "./workflows/agent/types.ts";
export { naiveLoopWorkflow } from "./workflows/bench-naive/index.ts";
