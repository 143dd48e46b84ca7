import { pipelineArgsOf } from "../workflows/agent/pipeline-args.ts";
import type { PlanningStartArgs } from "../workflows/agent/steps/planning-agent-start.ts";
import { beginEarlyStart } from "../workflows/agent/steps/run-start-early.ts";
import type { AgentWorkflowInput } from "../workflows/agent/types.ts";
import { openPipelineRun, type PipelineArgs } from "./interpreter.ts";
import { childPath } from "./parallel-block.ts";
import { agentPrompt, openingMessages, overBudget, report, turnsLimits } from "./pipeline-run.ts";

/**
 * The arguments of a run's first step when the run opens with a planning agent, read off its input
 * alone by the functions the workflow body uses on its way there (interpreter → agent step →
 * planning agent), or undefined when it opens otherwise. The route that starts a run begins that
 * step's work with them (run-start-early.ts); the step takes the work only when its own arguments
 * are these.
 */
export function openingStepArgs(args: PipelineArgs): PlanningStartArgs | undefined {
  const run = openPipelineRun(args);
  const [first] = run.definition.steps;
  if (!first || !("agent" in first)) return undefined;
  const agent = run.agents.get(first.agent);
  if (!agent?.plan || overBudget(run)) return undefined;
  report(run, { path: childPath("", 0), status: "running" });
  const prompt = agentPrompt(run, agent, first.inputs, 1);
  const messages = openingMessages(run, agent);
  return {
    runId: run.runId,
    input: run.input,
    definition: run.definition,
    agentId: agent.id,
    modelId: agent.model ?? run.input.modelId,
    prompt,
    messages,
    place: run.ledger.nextTurns(),
    audience: run.audience,
    limits: turnsLimits(run),
    start: run.start,
  };
}

/**
 * Begins the first step of a run started with `earlyStart` in its input, when it opens with a
 * planning agent (run-start-early.ts keeps the work until the step takes it over). Call once the
 * run's live frames have a listener: its first frames go out at once.
 */
export function beginRunStart(runId: string, input: AgentWorkflowInput): void {
  beginEarlyStart(runId, () => openingStepArgs(pipelineArgsOf(runId, input)));
}
