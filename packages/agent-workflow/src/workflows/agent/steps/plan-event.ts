import type { PlanState } from "../../../planning/index.ts";
import type { RunEventBody } from "../types.ts";

/** The `plan` event for the plan as it stands. */
export function planEvent(plan: PlanState, reason?: string): RunEventBody {
  return {
    type: "plan",
    goal: plan.goal,
    steps: plan.steps.map((step) => ({
      id: step.id,
      description: step.description,
      status: step.status,
      ...(step.successCriteria ? { successCriteria: step.successCriteria } : {}),
      ...(step.dependsOn.length > 0 ? { dependsOn: step.dependsOn } : {}),
    })),
    ...(reason ? { reason } : {}),
  };
}
