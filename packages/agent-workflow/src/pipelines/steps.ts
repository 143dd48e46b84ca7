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
