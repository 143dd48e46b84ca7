import type { PipelineAgent } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { type PlanState, planStepContext, revisePlan } from "../planning/plan-state.ts";
import { interruptedOutcome } from "../run-outcomes.ts";
import { zeroUsage } from "../usage.ts";
import { planEvent } from "../workflows/agent/steps/plan-event.ts";
import { reflect } from "../workflows/agent/steps/reflect.ts";
import { runTurns } from "../workflows/agent/steps/run-turns.ts";
import { startPlanningAgent } from "../workflows/agent/steps/start-planning-agent.ts";
import type { AgentRunOutcome } from "../workflows/agent/types.ts";
import { type AgentPrompt, agentSystem } from "./agent-system.ts";
import { type PipelineRun, turnsLimits } from "./pipeline-run.ts";

/** What an agent's work came to: how the run must end, when it must, and the agent's last words. */
export interface AgentWork {
  end?: AgentRunOutcome;
  text: string;
}

/**
 * A planning agent (the default agent is one): plan → execute → reflect. Its first step may return
 * a plan (the model decides; simple requests get none). With a plan, each plan step runs model
 * turns until the model answers without tool calls, then a reflection decides to continue, adjust
 * the remaining steps (at most `maxReplans` times) or stop. Without a plan, its first step did the
 * whole work. `messages` is its conversation, extended as it goes.
 */
export async function runPlanningAgent(
  run: PipelineRun,
  agent: PipelineAgent,
  prompt: AgentPrompt,
  messages: ModelMessage[],
): Promise<AgentWork> {
  const { runId, ledger, input } = run;
  const { limits } = input;
  const modelId = agent.model ?? input.modelId;
  const started = await startPlanningAgent({
    runId,
    input,
    definition: run.definition,
    agentId: agent.id,
    modelId,
    prompt,
    messages,
    place: ledger.nextTurns(),
    audience: run.audience,
    limits: turnsLimits(run),
    start: run.start,
  });
  const start = started.start;
  run.start = start;
  ledger.countCall(started.usage);
  if (!started.plan) {
    if (!started.turns) return { text: "" };
    messages.push(...started.turns.messages);
    return { end: ledger.absorb(started.turns), text: started.turns.lastText };
  }
  ledger.nextId = started.nextId;
  let plan: PlanState = started.plan;
  const system = agentSystem(start.system, prompt);
  const tools = start.tools[agent.id] ?? [];
  let replans = 0;
  let text = "";
  for (let index = 0; index < plan.steps.length; index++) {
    const step = plan.steps[index];
    if (!step) break;
    step.status = "running";
    ledger.queue({ type: "step", stepId: step.id, status: "running", description: step.description });
    const stepUsage = zeroUsage();
    const done = await runTurns({
      ...ledger.nextTurns(),
      runId,
      modelId,
      system: `${system}\n\n${planStepContext(plan, index)}`,
      messages,
      tools,
      audience: run.audience,
      limits: turnsLimits(run),
      runDeadline: start.deadline,
    });
    messages.push(...done.messages);
    if (done.lastText) text = done.lastText;
    const ended = ledger.absorb(done, stepUsage);
    step.status = ended ? "failed" : "done";
    ledger.queue({ type: "step", stepId: step.id, status: step.status, usage: stepUsage });
    if (ended) return { end: ended, text };

    const reflected = await reflect({
      runId,
      modelId,
      system,
      messages,
      tools,
      plan,
      index,
      timeoutMs: limits.modelStepTimeoutMs,
    });
    if (reflected.abortReason)
      return { end: interruptedOutcome(reflected.abortReason, limits.runTimeoutMs), text };
    ledger.countCall(reflected.usage);
    const decision = reflected.reflection;
    if (decision?.decision === "done") break;
    if (decision?.decision === "adjust" && decision.steps && replans < limits.maxReplans) {
      replans++;
      plan = revisePlan(plan, index, decision.steps, limits.maxPlanSteps);
      ledger.queue(planEvent(plan, decision.reason));
    }
  }
  return { text };
}
