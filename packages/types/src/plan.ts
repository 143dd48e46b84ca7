import { z } from "zod";

/** One step of an agent's plan, as the model proposes it. */
export const proposedPlanStepSchema = z.object({
  description: z.string().trim().min(1).max(300),
  /** Tools the model expects to use in this step (a hint, not a restriction). */
  tools: z.array(z.string().max(64)).max(12).default([]),
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
  note: z.string().max(500).optional(),
});
export type Reflection = z.infer<typeof reflectionSchema>;
