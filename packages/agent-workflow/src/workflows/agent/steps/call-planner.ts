import type { ModelMessage } from "ai";
import { log } from "../../../log.ts";
import { type CallUsage, type PlanState, proposePlan } from "../../../planning/index.ts";
import { runSignal } from "../../../run-control.ts";
import { SPAN, withSpan } from "../../../telemetry/tracing.ts";
import { toolSet } from "../../../tool-set.ts";
import { zeroUsage } from "../../../usage.ts";
import type { AgentLimits } from "../types.ts";

/**
 * Asks the model whether a planning agent's task needs a plan (inside the agent's first step). No
 * plan (a simple request, or an answer that did not parse) means the agent works without one.
 */
export function planAgent(args: PlanArgs): Promise<{ plan: PlanState | null; usage: CallUsage }> {
  return withSpan(
    SPAN.plan,
    args.runId,
    async (span) => {
      const planned = await plan(args);
      span.setAttribute("coauthor.plan_steps", planned.plan?.steps.length ?? 0);
      return planned;
    },
    { "coauthor.model_id": args.modelId },
  );
}

interface PlanArgs {
  runId: string;
  modelId: string;
  system: string;
  tools: string[];
  messages: ModelMessage[];
  limits: AgentLimits;
}

async function plan(args: PlanArgs): Promise<{ plan: PlanState | null; usage: CallUsage }> {
  const { runId, limits } = args;
  const proposal = await proposePlan({
    modelId: args.modelId,
    system: args.system,
    messages: args.messages,
    tools: toolSet(args.tools),
    signal: AbortSignal.any([runSignal(runId), AbortSignal.timeout(limits.modelStepTimeoutMs)]),
    runAbort: runSignal(runId),
    maxSteps: limits.maxPlanSteps,
  }).catch((error: unknown) => {
    // Only an aborted run gets here: the agent's first model turn reports it.
    log.info("planning interrupted", { runId, error });
    return { plan: null, usage: zeroUsage(), failure: undefined };
  });
  if (proposal.failure) log.warn("working without a plan", { runId, reason: proposal.failure });
  log.info("planned", { runId, steps: proposal.plan?.steps.length ?? 0, usage: proposal.usage });
  return { plan: proposal.plan, usage: proposal.usage };
}
