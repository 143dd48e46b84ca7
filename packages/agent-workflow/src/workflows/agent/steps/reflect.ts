import type { Reflection } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { log } from "../../../log.ts";
import { type CallUsage, type PlanState, reflectOnStep } from "../../../planning/index.ts";
import { abortRun, runSignal } from "../../../run-control.ts";
import { toolSet } from "../../../tool-set.ts";

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
}): Promise<{ reflection: Reflection | null; usage: CallUsage }> {
  "use step";
  const signal = AbortSignal.any([runSignal(args.runId), AbortSignal.timeout(args.timeoutMs)]);
  try {
    const result = await reflectOnStep({ ...args, tools: toolSet(args.tools), signal });
    if (result.failure) log.warn("reflection skipped", { runId: args.runId, reason: result.failure });
    log.info("reflected", { runId: args.runId, step: args.index + 1, decision: result.reflection?.decision });
    return { reflection: result.reflection, usage: result.usage };
  } catch (error) {
    // Aborted (Stop or the run timeout): the loop ends the run right after.
    log.info("reflection interrupted", { runId: args.runId, error });
    return { reflection: null, usage: { inputTokens: 0, outputTokens: 0 } };
  }
}

/** Interrupts the run's in-flight model call in this process (the whole-run timeout). */
export async function interruptModel(runId: string, reason: string): Promise<void> {
  "use step";
  abortRun(runId, reason);
}
