import type { RunEvent } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { type PlanView, planReducer } from "./plan-state";

const fold = (events: RunEvent[], start: PlanView | null = null) => events.reduce(planReducer, start);
const base = { runId: "r1" };
const plan = (id: number, steps: [string, "pending" | "done"][]): RunEvent => ({
  ...base,
  id,
  type: "plan",
  goal: "Goal",
  steps: steps.map(([description, status], i) => ({ id: `s${i + 1}`, description, status })),
});

describe("plan checklist", () => {
  it("shows the plan, moves steps along, and counts revisions", () => {
    const view = fold([
      { ...base, id: 0, type: "run-start", documentId: "d", mode: "agent", model: "m" },
      plan(1, [["Read", "pending"]]),
      { ...base, id: 2, type: "step", stepId: "s1", status: "running" },
      { ...base, id: 3, type: "step", stepId: "s1", status: "done" },
      plan(4, [
        ["Read", "done"],
        ["Write", "pending"],
      ]),
      { ...base, id: 5, type: "step", stepId: "s2", status: "running" },
    ]);
    expect(view).toEqual({
      runId: "r1",
      goal: "Goal",
      revisions: 1,
      steps: [
        { id: "s1", description: "Read", status: "done" },
        { id: "s2", description: "Write", status: "running" },
      ],
    });
  });

  it("keeps each step's success criteria and dependencies, and the reason of the last revision", () => {
    const view = fold([
      {
        ...base,
        id: 1,
        type: "plan",
        goal: "Goal",
        steps: [
          { id: "s1", description: "Read", status: "done", successCriteria: "all read" },
          { id: "s3", description: "Write", status: "pending", dependsOn: ["s1"] },
        ],
        reason: "The document has no table to fill.",
      },
    ]);
    expect(view?.reason).toBe("The document has no table to fill.");
    expect(view?.steps).toEqual([
      { id: "s1", description: "Read", status: "done", successCriteria: "all read" },
      { id: "s3", description: "Write", status: "pending", dependsOn: ["s1"] },
    ]);
  });

  it("marks the running step failed when the run ends, ignores other runs, and a new run clears it", () => {
    const running = fold([
      plan(1, [["Read", "pending"]]),
      { ...base, id: 2, type: "step", stepId: "s1", status: "running" },
    ]);
    const other: RunEvent = { runId: "r2", id: 3, type: "step", stepId: "s1", status: "done" };
    expect(fold([other], running)).toBe(running);
    const ended = fold(
      [{ ...base, id: 3, type: "error", code: "x", message: "m", recoverable: false }],
      running,
    );
    expect(ended?.steps[0]?.status).toBe("failed");
    expect(
      fold([{ runId: "r2", id: 0, type: "run-start", documentId: "d", mode: "agent", model: "m" }], ended),
    ).toBeNull();
  });
});
