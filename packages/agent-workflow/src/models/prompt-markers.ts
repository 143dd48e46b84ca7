// Strings the workflow puts in prompts and the offline model looks for. Constants
// only: imported by both sides without an import cycle.

/** Names the structured output of a planner call. */
export const PLAN_OUTPUT_NAME = "plan";
/** Names the structured output of a reflection call. */
export const REFLECTION_OUTPUT_NAME = "reflection";
/** Starts the line of the system prompt that names the plan step being worked on. */
export const CURRENT_STEP_MARKER = "Current plan step:";
/** Introduces the expected tools on the current-step line. */
export const STEP_TOOLS_MARKER = "Expected tools:";
/** Starts the system prompt's last paragraph when a run must end before its work is done. */
export const WRAP_UP_MARKER = "The run ends now.";
/** Names the structured output of a pipeline agent. */
export const AGENT_OUTPUT_NAME = "agent-output";
/** Starts the system prompt's line that names the pipeline agent at work and its round. */
export const PIPELINE_AGENT_MARKER = "Pipeline agent:";
