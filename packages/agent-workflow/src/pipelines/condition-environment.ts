import type { Environment } from "@marcbachmann/cel-js";

// Conditions of a pipeline (`branch` cases, a loop's `until`) are CEL expressions over the
// validated outputs of earlier steps, `steps.<id>.<field>`. CEL is not Turing-complete and runs
// in linear time; nothing here evaluates code (no eval, no Function).
//
// One environment for checking them (conditions.ts) and for evaluating them
// (condition-evaluation.ts). Only its type is imported here: the workflow bundle must not load
// CEL up front (see condition-evaluation.ts).

/** The CEL environment conditions are checked and evaluated in, from cel-js's `Environment`. */
export function conditionEnvironment(EnvironmentClass: typeof Environment): Environment {
  const environment = new EnvironmentClass({
    unlistedVariablesAreDyn: false,
    limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 },
  });
  environment.registerVariable("steps", "map");
  return environment;
}
