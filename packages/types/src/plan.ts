import { z } from "zod";

/** One step of an agent's plan, as the model proposes it. */
export const proposedPlanStepSchema = z.object({
  description: z.string().trim().min(1).max(300),
  /** Tools the model expects to use in this step (a hint, not a restriction). */
  tools: z.array(z.string().max(64)).max(12).default([]),
  /** What the step must achieve: how the agent (and the reflection) knows it is done. */
  successCriteria: z.string().trim().max(300).optional(),
  /** Earlier steps this one needs, by their 1-based number in the plan. */
  dependsOn: z.array(z.int().min(1).max(50)).max(20).default([]),
});
export type ProposedPlanStep = z.infer<typeof proposedPlanStepSchema>;

/**
 * The planner model's answer. No steps means "simple request: work without a
 * plan" — whether to plan is the model's decision.
 */
export const proposedPlanSchema = z.object({
  goal: z.string().trim().max(500).default(""),
  steps: z.array(proposedPlanStepSchema).max(20),
});
export type ProposedPlan = z.infer<typeof proposedPlanSchema>;

/** The model's reflection after a step: go on, revise the remaining steps, or stop. */
export const reflectionSchema = z.object({
  decision: z.enum(["continue", "adjust", "done"]),
  /** With `adjust`: the steps that remain to be done, replacing the old remainder. */
  steps: z.array(proposedPlanStepSchema).max(20).optional(),
  /** Why the plan changes (with `adjust`), shown to the writer. */
  reason: z.string().max(500).optional(),
});
export type Reflection = z.infer<typeof reflectionSchema>;
