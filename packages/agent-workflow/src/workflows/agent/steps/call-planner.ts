import type { ModelMessage } from "ai";
import { armRunTimeout } from "../../../deadlines.ts";
import type { RunWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { type CallUsage, type PlanState, proposePlan } from "../../../planning/index.ts";
import { runSignal } from "../../../run-control.ts";
import { SPAN, withSpan } from "../../../telemetry/tracing.ts";
import { toolSet } from "../../../tool-set.ts";
import { createAgentCaller } from "../../../trpc/index.ts";
import { zeroUsage } from "../../../usage.ts";
import type { AgentWorkflowInput } from "../types.ts";
import { planEvent } from "./plan-event.ts";
import { framesOf } from "./write-frames.ts";

/** The planner's answer: tools the run may use, its system prompt and its plan (if any). */
export interface PlannerResult {
  tools: string[];
  system: string;
  plan: PlanState | null;
  usage: CallUsage;
  nextId: number;
  /** When the run's time limit passes (epoch ms). */
  runDeadline: number;
}

/**
 * Plans a run (inside the run's first step): announces it (`run-start`, the
 * first frame), asks the tRPC planner through a server caller (no HTTP) which
 * tools this run may use, then asks the model whether the request needs a
 * plan. No plan (a simple request, or an answer that did not parse) means the
 * run works without one. The caller announces the plan (id 1) once it has
 * saved it; `nextId` already counts it.
 */
export function planRun(
  runId: string,
  input: AgentWorkflowInput,
  messages: ModelMessage[],
  writer: RunWriter,
): Promise<PlannerResult> {
  return withSpan(
    SPAN.plan,
    runId,
    async (span) => {
      const planned = await plan(runId, input, messages, writer);
      span.setAttribute("coauthor.plan_steps", planned.plan?.steps.length ?? 0);
      return planned;
    },
    { "coauthor.model_id": input.modelId },
  );
}

async function plan(
  runId: string,
  input: AgentWorkflowInput,
  messages: ModelMessage[],
  writer: RunWriter,
): Promise<PlannerResult> {
  const runDeadline = Date.now() + input.limits.runTimeoutMs;
  armRunTimeout(runId, runDeadline);
  writer.send(
    framesOf(runId, 0, [
      { type: "run-start", documentId: input.documentId, mode: "agent", model: input.modelId },
    ]),
  );
  const caller = createAgentCaller({ userId: input.userId });
  const allowed = await caller.llm.plan({
    documentId: input.documentId,
    mode: "agent",
    prompt: input.prompt,
  });
  const proposal = await proposePlan({
    modelId: input.modelId,
    system: allowed.system,
    messages,
    tools: toolSet(allowed.tools),
    signal: AbortSignal.any([runSignal(runId), AbortSignal.timeout(input.limits.modelStepTimeoutMs)]),
    runAbort: runSignal(runId),
    maxSteps: input.limits.maxPlanSteps,
  }).catch((error: unknown) => {
    // Only an aborted run gets here: the loop's first model turn reports it.
    log.info("planning interrupted", { runId, error });
    return { plan: null, usage: zeroUsage(), failure: undefined };
  });
  if (proposal.failure) log.warn("working without a plan", { runId, reason: proposal.failure });
  log.info("planned", { runId, steps: proposal.plan?.steps.length ?? 0, usage: proposal.usage });
  return {
    tools: allowed.tools,
    system: allowed.system,
    plan: proposal.plan,
    usage: proposal.usage,
    nextId: proposal.plan ? 2 : 1,
    runDeadline,
  };
}

/** The `plan` event's frame (always id 1: the frame after `run-start`). */
export function planFrame(runId: string, plan: PlanState): string {
  return framesOf(runId, 1, [planEvent(plan)]);
}
