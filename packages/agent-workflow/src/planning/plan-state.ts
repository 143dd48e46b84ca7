// The plan as the run tracks it, and the prompt text made from it. Imported by
// the workflow body (evaluated on every replay): no zod, no AI SDK, types only.
import type { ProposedPlanStep } from "@coauthor/types";
import { CURRENT_STEP_MARKER, STEP_TOOLS_MARKER } from "../models/prompt-markers.ts";

/** A plan step as the run tracks it (ids are stable across re-plans). */
export interface PlanStep {
  id: string;
  description: string;
  tools: string[];
  status: "pending" | "running" | "done" | "failed";
  successCriteria?: string;
  /** Ids of the earlier steps it needs. */
  dependsOn: string[];
}

/** The run's current plan. */
export interface PlanState {
  goal: string;
  steps: PlanStep[];
  /** Counter for fresh step ids. */
  nextStepNumber: number;
}

export function planFrom(
  goal: string,
  steps: ProposedPlanStep[],
  keep: PlanStep[] = [],
  first = 1,
): PlanState {
  const ids = [...keep.map((step) => step.id), ...steps.map((_, index) => `s${first + index}`)];
  const fresh = steps.map((step, index): PlanStep => {
    const position = keep.length + index;
    return {
      id: ids[position] ?? `s${first + index}`,
      description: step.description,
      tools: step.tools,
      status: "pending",
      ...(step.successCriteria ? { successCriteria: step.successCriteria } : {}),
      // Numbers count over the whole plan; only earlier steps can be needed.
      dependsOn: step.dependsOn.flatMap((number) => (number - 1 < position ? [ids[number - 1] ?? ""] : [])),
    };
  });
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
    ...(current?.successCriteria ? [`Done when: ${current.successCriteria}`] : []),
    "Work on the current step only. When it is done, answer with one short sentence and no tool calls.",
  ].join("\n");
}
