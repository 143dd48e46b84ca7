import type { PipelineStep, StepKind } from "@coauthor/types";

/** A step's kind (the key that names it). */
export function stepKind(step: PipelineStep): StepKind {
  if ("agent" in step) return "agent";
  if ("sequence" in step) return "sequence";
  if ("parallel" in step) return "parallel";
  if ("branch" in step) return "branch";
  return "loop";
}

/** A step's id: its own, or for an agent step without one, its agent's id. */
export function stepId(step: PipelineStep): string | undefined {
  return step.id ?? ("agent" in step ? step.agent : undefined);
}

/** The step lists a step holds, with their place in it (keys from the step). */
export function childrenOf(step: PipelineStep): { path: (string | number)[]; steps: PipelineStep[] }[] {
  if ("sequence" in step) return [{ path: ["sequence"], steps: step.sequence }];
  if ("parallel" in step) return [{ path: ["parallel"], steps: step.parallel }];
  if ("loop" in step) return [{ path: ["loop"], steps: step.loop }];
  if ("branch" in step) {
    const cases = step.branch.map((entry, index) => ({
      path: ["branch", index, "steps"],
      steps: entry.steps,
    }));
    return step.else ? [...cases, { path: ["else"], steps: step.else }] : cases;
  }
  return [];
}
