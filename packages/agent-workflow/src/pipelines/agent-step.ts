import type { PipelineStep } from "@coauthor/types";
import { runTurns } from "../workflows/agent/steps/run-turns.ts";
import { agentSystem } from "./agent-system.ts";
import {
  agentPrompt,
  openingMessages,
  overBudget,
  type PipelineRun,
  report,
  type StepEnd,
  type StepResult,
  turnsLimits,
} from "./pipeline-run.ts";
import { agentOutput, startPipeline } from "./pipeline-steps.ts";
import { type AgentWork, runPlanningAgent } from "./planned-agent.ts";
import { stepId } from "./steps.ts";

/**
 * One agent step: the agent's work (a planning agent plans first; any other runs its turns), each
 * tool call run in the browser; then its structured output when it declares one.
 */
export async function runAgentStep(
  run: PipelineRun,
  step: Extract<PipelineStep, { agent: string }>,
  path: string,
  round: number,
): Promise<StepEnd | undefined> {
  const agent = run.agents.get(step.agent);
  if (!agent) return { failure: { code: "step-failed", message: `no agent "${step.agent}"` } };
  const exhausted = overBudget(run);
  if (exhausted) return { end: exhausted };
  const { ledger, input } = run;
  const prompt = agentPrompt(run, agent, step.inputs, round);
  const messages = openingMessages(run, agent);
  const modelId = agent.model ?? input.modelId;
  let work: AgentWork;
  if (agent.plan) {
    work = await runPlanningAgent(run, agent, prompt, messages);
  } else {
    // A run that does not open with a planning agent opens in a step of its own.
    run.start ??= await startPipeline({ runId: run.runId, input, definition: run.definition });
    const done = await runTurns({
      ...ledger.nextTurns(),
      runId: run.runId,
      modelId,
      system: agentSystem(run.start.system, prompt),
      messages,
      tools: run.start.tools[agent.id] ?? [],
      audience: run.audience,
      limits: turnsLimits(run),
      runDeadline: run.start.deadline,
    });
    messages.push(...done.messages);
    work = { end: ledger.absorb(done), text: done.lastText };
  }
  if (agent.context === "conversation") run.conversation = messages;
  const ended = work.end;
  if (ended) {
    if (ended.status === "error") {
      return { failure: { code: ended.code ?? "step-failed", message: ended.summary ?? "failed" } };
    }
    return { end: ended };
  }
  const result: StepResult = { text: work.text };
  if (agent.output && run.start) {
    const answered = await agentOutput({
      runId: run.runId,
      modelId,
      system: agentSystem(run.start.system, prompt),
      messages,
      tools: run.start.tools[agent.id] ?? [],
      output: agent.output,
      timeoutMs: input.limits.modelStepTimeoutMs,
    });
    ledger.countCall(answered.usage);
    if (!answered.output) {
      return {
        failure: { code: "output-invalid", message: `${agent.id}: ${answered.failure ?? "no output"}` },
      };
    }
    result.output = answered.output;
  }
  run.results[stepId(step) ?? step.agent] = result;
  report(run, { path, status: "done", ...(result.output ? { output: result.output } : {}) });
  return undefined;
}
