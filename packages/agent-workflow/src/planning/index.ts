import { type ProposedPlan, proposedPlanSchema, type Reflection, reflectionSchema } from "@coauthor/types";
import { generateText, type ModelMessage, Output, type ToolSet } from "ai";
import type { z } from "zod";
import { PLAN_OUTPUT_NAME, REFLECTION_OUTPUT_NAME } from "../models/prompt-markers.ts";
import { resolveModel } from "../models/registry.ts";
import { modelTelemetry } from "../telemetry/model-calls.ts";
import { type TokenUsage, usageOf, zeroUsage } from "../usage.ts";
import { type PlanState, planFrom, planStepContext } from "./plan-state.ts";

export type { PlanState, PlanStep } from "./plan-state.ts";
export { planStepContext, revisePlan } from "./plan-state.ts";

/** Token use of one model call. */
export type CallUsage = TokenUsage;

export interface ModelCall {
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** The call's signal: the run's abort and the model step time limit. */
  signal: AbortSignal;
  /** The run's own abort (Stop, the run time limit). */
  runAbort: AbortSignal;
}

const PLANNER_SYSTEM = [
  "You plan the work of Coauthor, an AI coauthor that edits the user's document through tools.",
  "Decide first whether the request needs a plan. A simple request (one edit, one question, one lookup) needs none:",
  'answer {"goal": "", "steps": []}.',
  "A task with several distinct parts gets a short plan: the goal in one sentence and 2 to 6 steps, each with a",
  "one-line description, the names of the tools it will use, its successCriteria (what must be true when it is",
  "done) and dependsOn (the numbers of earlier steps it needs). Answer with the JSON object only.",
].join("\n");

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error);
}

/**
 * One structured model call (AI SDK structured output): its parsed answer, or
 * a `failure` saying why there is none (an unparseable answer, a failed call).
 * Stop and the run time limit end the run, so those rethrow.
 */
export async function structuredCall<T>(
  call: ModelCall,
  request: { system: string; schema: z.ZodType<T>; name: string; maxRetries: number; what: string },
): Promise<{ output?: T; usage: CallUsage; failure?: string }> {
  try {
    const result = await generateText({
      model: resolveModel(call.modelId),
      system: request.system,
      messages: call.messages,
      tools: call.tools,
      toolChoice: "none",
      output: Output.object({ schema: request.schema, name: request.name }),
      abortSignal: call.signal,
      maxRetries: request.maxRetries,
      telemetry: modelTelemetry(`coauthor.${request.name}`),
    });
    const usage = usageOf(result.usage);
    try {
      return { output: result.output, usage };
    } catch (error) {
      return { usage, failure: `unparseable ${request.what}: ${describeFailure(error)}` };
    }
  } catch (error) {
    // A model call that merely timed out is a failure.
    if (call.runAbort.aborted) throw error;
    return { usage: zeroUsage(), failure: describeFailure(error) };
  }
}

/**
 * Asks the model for a plan. `plan` is null when the model judged the request
 * simple (no steps) or its answer could not be parsed (`failure` says why):
 * the run then works without a plan.
 */
export async function proposePlan(
  call: ModelCall & { maxSteps: number },
): Promise<{ plan: PlanState | null; usage: CallUsage; failure?: string }> {
  const { output, usage, failure } = await structuredCall<ProposedPlan>(call, {
    system: `${PLANNER_SYSTEM}\n\n${call.system}`,
    schema: proposedPlanSchema,
    name: PLAN_OUTPUT_NAME,
    maxRetries: 2,
    what: "plan",
  });
  if (!output || output.steps.length === 0) return { plan: null, usage, failure };
  return { plan: planFrom(output.goal, output.steps.slice(0, call.maxSteps)), usage };
}

const REFLECT_SYSTEM = [
  "You review the progress of Coauthor, an AI coauthor editing the user's document, after one step of its plan.",
  'Answer with JSON: {"decision": "continue"} to go on with the plan, {"decision": "done"} when the request is',
  'fulfilled, or {"decision": "adjust", "steps": [...], "reason": "…"} with the steps that remain and why, when',
  "the plan must change. Judge each step by its success criteria.",
  "Judge the request against the whole document: when a readDocument result says blocks remain, that part was",
  'not read, and a task over "the document" is not done until it has been read and handled too.',
].join("\n");

/**
 * Asks the model whether to continue, adjust or stop after a plan step. A
 * failed or unparseable reflection returns null: the run goes on with its plan.
 */
export async function reflectOnStep(
  call: ModelCall & { plan: PlanState; index: number },
): Promise<{ reflection: Reflection | null; usage: CallUsage; failure?: string }> {
  const { output, usage, failure } = await structuredCall<Reflection>(call, {
    system: `${REFLECT_SYSTEM}\n\n${call.system}\n\n${planStepContext(call.plan, call.index)}`,
    schema: reflectionSchema,
    name: REFLECTION_OUTPUT_NAME,
    maxRetries: 1,
    what: "reflection",
  });
  return { reflection: output ?? null, usage, failure };
}
