import { agentEnv } from "@coauthor/agent-workflow";
import type { AgentLimits } from "@coauthor/agent-workflow/server";

/** The run limits configured for this server. */
export function agentLimits(): AgentLimits {
  const env = agentEnv();
  return {
    maxPlanSteps: env.AGENT_MAX_PLAN_STEPS,
    maxTurnsPerStep: env.AGENT_MAX_TURNS_PER_STEP,
    maxToolCallsPerTurn: env.AGENT_MAX_TOOL_CALLS_PER_TURN,
    maxToolCallsPerRun: env.AGENT_MAX_TOOL_CALLS_PER_RUN,
    toolDeadlineMs: env.AGENT_TOOL_DEADLINE_MS,
    modelStepTimeoutMs: env.AGENT_MODEL_STEP_TIMEOUT_MS,
    maxReplans: env.AGENT_MAX_REPLANS,
    runTimeoutMs: env.AGENT_RUN_TIMEOUT_MS,
  };
}
