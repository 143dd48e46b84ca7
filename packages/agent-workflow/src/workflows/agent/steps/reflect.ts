import type { Reflection } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { log } from "../../../log.ts";
import { type CallUsage, type PlanState, reflectOnStep } from "../../../planning/index.ts";
import { runSignal } from "../../../run-control.ts";
import { SPAN, withSpan } from "../../../telemetry/tracing.ts";
import { toolSet } from "../../../tool-set.ts";
import { zeroUsage } from "../../../usage.ts";
import { reasonOf } from "./call-llm.ts";

/**
 * Reflection step: after a plan step, the model decides to continue, adjust
 * the plan or stop. A failed reflection is skipped (null), never fatal.
 */
export async function reflect(args: {
  runId: string;
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  plan: PlanState;
  index: number;
  timeoutMs: number;
}): Promise<{ reflection: Reflection | null; usage: CallUsage; abortReason?: string }> {
  "use step";
  return withSpan(SPAN.reflect, args.runId, () => reflectNow(args), { "coauthor.plan_step": args.index + 1 });
}

async function reflectNow(args: Parameters<typeof reflect>[0]): ReturnType<typeof reflect> {
  const runAbort = runSignal(args.runId);
  const signal = AbortSignal.any([runAbort, AbortSignal.timeout(args.timeoutMs)]);
  try {
    const result = await reflectOnStep({ ...args, tools: toolSet(args.tools), signal, runAbort });
    if (result.failure) log.warn("reflection skipped", { runId: args.runId, reason: result.failure });
    log.info("reflected", { runId: args.runId, step: args.index + 1, decision: result.reflection?.decision });
    return { reflection: result.reflection, usage: result.usage, abortReason: reasonOf(runAbort) };
  } catch (error) {
    // Aborted (Stop or the run timeout): the loop ends the run right after.
    log.info("reflection interrupted", { runId: args.runId, error });
    return { reflection: null, usage: zeroUsage(), abortReason: reasonOf(runAbort) };
  }
}
