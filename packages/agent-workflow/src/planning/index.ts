import {
  type ProposedPlan,
  type ProposedPlanStep,
  proposedPlanSchema,
  type Reflection,
  reflectionSchema,
} from "@coauthor/types";
import { generateText, type ModelMessage, Output, type ToolSet } from "ai";
import {
  CURRENT_STEP_MARKER,
  PLAN_OUTPUT_NAME,
  REFLECTION_OUTPUT_NAME,
  STEP_TOOLS_MARKER,
} from "../models/prompt-markers.ts";
import { resolveModel } from "../models/registry.ts";

/** A plan step as the run tracks it (ids are stable across re-plans). */
export interface PlanStep {
  id: string;
  description: string;
  tools: string[];
  status: "pending" | "running" | "done" | "failed";
}

/** The run's current plan. */
export interface PlanState {
  goal: string;
  steps: PlanStep[];
  /** Counter for fresh step ids. */
  nextStepNumber: number;
}

/** Token use of one model call. */
export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
}

interface ModelCall {
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
}

const PLANNER_SYSTEM = [
  "You plan the work of Coauthor, an AI coauthor that edits the user's document through tools.",
  "Decide first whether the request needs a plan. A simple request (one edit, one question, one lookup) needs none:",
  'answer {"goal": "", "steps": []}.',
  "A task with several distinct parts gets a short plan: the goal in one sentence and 2 to 6 steps, each with a",
  "one-line description and the names of the tools it will use. Answer with the JSON object only.",
].join("\n");

function usageOf(usage: { inputTokens?: number; outputTokens?: number }): CallUsage {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error);
}

/**
 * Asks the model for a plan. `plan` is null when the model judged the request
 * simple (no steps) or its answer could not be parsed (`failure` says why):
 * the run then works without a plan.
 */
export async function proposePlan(
  call: ModelCall & { maxSteps: number },
): Promise<{ plan: PlanState | null; usage: CallUsage; failure?: string }> {
  try {
    const result = await generateText({
      model: resolveModel(call.modelId),
      system: `${PLANNER_SYSTEM}\n\n${call.system}`,
      messages: call.messages,
      tools: call.tools,
      toolChoice: "none",
      output: Output.object({ schema: proposedPlanSchema, name: PLAN_OUTPUT_NAME }),
      abortSignal: call.signal,
      maxRetries: 2,
    });
    const usage = usageOf(result.usage);
    let proposed: ProposedPlan;
    try {
      proposed = result.output;
    } catch (error) {
      return { plan: null, usage, failure: `unparseable plan: ${describeFailure(error)}` };
    }
    if (proposed.steps.length === 0) return { plan: null, usage };
    return { plan: planFrom(proposed.goal, proposed.steps.slice(0, call.maxSteps)), usage };
  } catch (error) {
    if (call.signal.aborted) throw error;
    return { plan: null, usage: { inputTokens: 0, outputTokens: 0 }, failure: describeFailure(error) };
  }
}

function planFrom(goal: string, steps: ProposedPlanStep[], keep: PlanStep[] = [], first = 1): PlanState {
  const fresh = steps.map(
    (step, index): PlanStep => ({
      id: `s${first + index}`,
      description: step.description,
      tools: step.tools,
      status: "pending",
    }),
  );
  return { goal, steps: [...keep, ...fresh], nextStepNumber: first + steps.length };
}

/** The plan with its remainder (everything after `doneThrough`) replaced by `steps`. */
export function revisePlan(
  plan: PlanState,
  doneThrough: number,
  steps: ProposedPlanStep[],
  maxSteps: number,
) {
  const keep = plan.steps.slice(0, doneThrough + 1);
  const room = Math.max(0, maxSteps - keep.length);
  return planFrom(plan.goal, steps.slice(0, room), keep, plan.nextStepNumber);
}

/** The system-prompt section that tells the model the plan and which step it is on. */
export function planStepContext(plan: PlanState, index: number): string {
  const current = plan.steps[index];
  const lines = plan.steps.map((step, i) => {
    const mark = i < index ? "done" : i === index ? "current" : "next";
    return `${i + 1}. [${mark}] ${step.description}`;
  });
  return [
    `Plan${plan.goal ? ` (goal: ${plan.goal})` : ""}:`,
    ...lines,
    `${CURRENT_STEP_MARKER} ${index + 1}. ${current?.description ?? ""} ${STEP_TOOLS_MARKER} ${current?.tools.join(", ") ?? ""}`,
    "Work on the current step only. When it is done, answer with one short sentence and no tool calls.",
  ].join("\n");
}

const REFLECT_SYSTEM = [
  "You review the progress of Coauthor, an AI coauthor editing the user's document, after one step of its plan.",
  'Answer with JSON: {"decision": "continue"} to go on with the plan, {"decision": "done"} when the request is',
  'fulfilled, or {"decision": "adjust", "steps": [...]} with the steps that remain when the plan must change.',
].join("\n");

/**
 * Asks the model whether to continue, adjust or stop after a plan step. A
 * failed or unparseable reflection returns null: the run goes on with its plan.
 */
export async function reflectOnStep(
  call: ModelCall & { plan: PlanState; index: number },
): Promise<{ reflection: Reflection | null; usage: CallUsage; failure?: string }> {
  try {
    const result = await generateText({
      model: resolveModel(call.modelId),
      system: `${REFLECT_SYSTEM}\n\n${call.system}\n\n${planStepContext(call.plan, call.index)}`,
      messages: call.messages,
      tools: call.tools,
      toolChoice: "none",
      output: Output.object({ schema: reflectionSchema, name: REFLECTION_OUTPUT_NAME }),
      abortSignal: call.signal,
      maxRetries: 1,
    });
    const usage = usageOf(result.usage);
    try {
      return { reflection: result.output, usage };
    } catch (error) {
      return { reflection: null, usage, failure: `unparseable reflection: ${describeFailure(error)}` };
    }
  } catch (error) {
    if (call.signal.aborted) throw error;
    return { reflection: null, usage: { inputTokens: 0, outputTokens: 0 }, failure: describeFailure(error) };
  }
}
