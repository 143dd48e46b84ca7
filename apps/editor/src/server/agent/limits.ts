import { agentEnv } from "@coauthor/agent-workflow";
import type { AgentLimits } from "@coauthor/agent-workflow/server";

/** The run limits configured for this server. */
export function agentLimits(): AgentLimits {
  const env = agentEnv();
  return {
    maxSteps: env.AGENT_MAX_STEPS,
    maxToolCallsPerStep: env.AGENT_MAX_TOOL_CALLS_PER_STEP,
    toolDeadlineMs: env.AGENT_TOOL_DEADLINE_MS,
    modelStepTimeoutMs: env.AGENT_MODEL_STEP_TIMEOUT_MS,
    maxReplans: env.AGENT_MAX_REPLANS,
    runTimeoutMs: env.AGENT_RUN_TIMEOUT_MS,
  };
}
