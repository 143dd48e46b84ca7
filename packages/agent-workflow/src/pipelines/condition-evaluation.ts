import type { Environment } from "@marcbachmann/cel-js";
import { conditionEnvironment } from "./condition-environment.ts";

// The workflow's side of conditions. The engine evaluates the whole workflow bundle again in a
// fresh context on every replay (each run's start, each step's end), and cel-js builds its
// function registry when it is loaded: most of that evaluation's time, paid by every run
// whether or not its pipeline has a condition. So CEL is loaded here on a condition's first
// evaluation in a replay (the bundler inlines the import as a lazy initializer: no I/O, and the
// same order on every replay).

let environment: Environment | undefined;

/** Evaluates a (validated) condition over the outputs so far; a non-boolean answer is an error. */
export async function evaluateCondition(
  expression: string,
  outputs: Record<string, unknown>,
): Promise<boolean> {
  environment ??= conditionEnvironment((await import("@marcbachmann/cel-js")).Environment);
  // Plain JSON values only: outputs that crossed a step boundary may come back as objects of
  // another prototype, which the evaluator does not take.
  const steps: unknown = JSON.parse(JSON.stringify(outputs));
  const value: unknown = environment.evaluate(expression, { steps });
  if (typeof value !== "boolean") throw new Error(`the condition "${expression}" is not true or false`);
  return value;
}
