"use client";

import type { RunEvent } from "@coauthor/types";
import { useCallback, useState } from "react";
import { type PlanView, planReducer } from "./plan-state";

const MARKS = { pending: "○", running: "◐", done: "✓", failed: "✕" } as const;

/** The plan checklist of the run shown in the panel; feed it every run event. */
export function usePlanChecklist() {
  const [plan, setPlan] = useState<PlanView | null>(null);
  const onRunEvent = useCallback((event: RunEvent) => setPlan((view) => planReducer(view, event)), []);
  const clear = useCallback(() => setPlan(null), []);
  return { plan, onRunEvent, clear };
}

/** The agent's plan as a live checklist (model text rendered as text, never HTML). */
export function PlanChecklist({ plan }: { plan: PlanView | null }) {
  if (!plan) return null;
  const done = plan.steps.filter((s) => s.status === "done").length;
  return (
    <section className="plan" data-testid="assistant-plan" aria-label="Plan">
      <header className="plan-header">
        <span className="plan-title">{plan.goal || "Plan"}</span>
        <span className="plan-progress" data-testid="assistant-plan-progress">
          {done}/{plan.steps.length}
          {plan.revisions > 0 ? ` · revised ${plan.revisions}×` : ""}
        </span>
      </header>
      {plan.reason ? (
        <p className="plan-reason" data-testid="assistant-plan-reason">
          Plan revised: {plan.reason}
        </p>
      ) : null}
      <ol className="plan-steps">
        {plan.steps.map((step) => (
          <li
            key={step.id}
            className={`plan-step plan-step-${step.status}`}
            data-testid="assistant-plan-step"
            data-status={step.status}
          >
            <span className="plan-step-mark" aria-hidden="true">
              {MARKS[step.status]}
            </span>
            <span className="plan-step-text">{step.description}</span>
            {step.successCriteria ? (
              <span className="plan-step-criteria" data-testid="assistant-plan-criteria">
                Done when: {step.successCriteria}
              </span>
            ) : null}
            <span className="visually-hidden">({step.status})</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
