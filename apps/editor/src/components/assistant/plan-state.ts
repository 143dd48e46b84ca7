import type { RunEvent } from "@coauthor/types";

/** One line of the plan checklist. */
export interface PlanLine {
  id: string;
  description: string;
  status: "pending" | "running" | "done" | "failed";
  /** What the step must achieve. */
  successCriteria?: string;
  /** Ids of the earlier steps it needs. */
  dependsOn?: string[];
}

/** The plan of the run shown in the panel (null: the run works without one). */
export interface PlanView {
  runId: string;
  goal: string;
  steps: PlanLine[];
  /** Times the agent revised the plan. */
  revisions: number;
  /** Why the plan was last revised (the reflection's reason). */
  reason?: string;
}

/**
 * Folds a run's events into its checklist: `plan` sets (or revises) the
 * steps, `step` moves one along. A new run's `run-start` clears the old plan.
 * Events of another run than the one shown are ignored.
 */
export function planReducer(view: PlanView | null, event: RunEvent): PlanView | null {
  if (event.type === "run-start") return null;
  if (event.type === "plan") {
    const revisions = view?.runId === event.runId ? view.revisions + 1 : 0;
    return {
      runId: event.runId,
      goal: event.goal,
      steps: event.steps.map((s) => ({ ...s })),
      revisions,
      ...(event.reason ? { reason: event.reason } : {}),
    };
  }
  if (event.type === "step" && view?.runId === event.runId) {
    const known = view.steps.some((s) => s.id === event.stepId);
    const steps = known
      ? view.steps.map((s) => (s.id === event.stepId ? { ...s, status: event.status } : s))
      : [...view.steps, { id: event.stepId, description: event.description ?? "", status: event.status }];
    return { ...view, steps };
  }
  if ((event.type === "finish" || event.type === "error") && view?.runId === event.runId) {
    // Whatever was still running when the run ended did not finish.
    return {
      ...view,
      steps: view.steps.map((s) => (s.status === "running" ? { ...s, status: "failed" } : s)),
    };
  }
  return view;
}
