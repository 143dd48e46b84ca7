import type { PipelineAgent, PipelineDefinition, PipelineStep } from "@coauthor/types";
import { isServerTool, SERVER_TOOL_NAMES } from "@coauthor/types";
import { isWriteTool, toolNameSchema } from "@coauthor/types/tools";
import { analyzeCondition } from "./conditions.ts";
import { childrenOf, stepId, stepKind } from "./steps.ts";

// The checks a schema cannot make: every id a step, an input or a condition names exists, is an
// agent step with that output field, and can have run before the place that reads it. A step can
// have run before another when it comes earlier in order, or sits in the same loop's body (the
// previous round's output) — never when it comes later or runs beside it in a parallel block.

/** A place in the definition: keys and indexes from its root. */
export type DefinitionPath = (string | number)[];

/**
 * What the reference checks report: where, and what to change. The schema checks (definition.ts)
 * report theirs the same way, before these run.
 */
export interface DefinitionProblem {
  path: DefinitionPath;
  message: string;
}

interface StepInfo {
  path: DefinitionPath;
  kind: ReturnType<typeof stepKind>;
  agent?: PipelineAgent;
}

/** Whether an agent may change the document. */
export function agentWrites(agent: PipelineAgent): boolean {
  if (agent.tools === "write") return true;
  if (agent.tools === "read" || agent.tools === "none") return false;
  return agent.tools.some(isWriteTool);
}

function checkAgents(
  definition: PipelineDefinition,
  problems: DefinitionProblem[],
): Map<string, PipelineAgent> {
  const agents = new Map<string, PipelineAgent>();
  definition.agents.forEach((agent, index) => {
    if (agents.has(agent.id)) {
      problems.push({
        path: ["agents", index, "id"],
        message: `two agents have the id "${agent.id}": rename one`,
      });
    }
    agents.set(agent.id, agent);
    if (Array.isArray(agent.tools)) {
      agent.tools.forEach((name, toolIndex) => {
        if (!toolNameSchema.safeParse(name).success && !isServerTool(name)) {
          const known = [...toolNameSchema.options, ...SERVER_TOOL_NAMES].join(", ");
          problems.push({
            path: ["agents", index, "tools", toolIndex],
            message: `no tool is called "${name}" (tools: ${known})`,
          });
        }
      });
    }
    for (const [requiredIndex, field] of (agent.output?.required ?? []).entries()) {
      if (!(field in (agent.output?.properties ?? {}))) {
        problems.push({
          path: ["agents", index, "output", "required", requiredIndex],
          message: `"${field}" is required but not among the output's properties`,
        });
      }
    }
  });
  return agents;
}

/** Every step of the tree with its id, kind, path and agent; duplicate ids are problems. */
function indexSteps(
  steps: PipelineStep[],
  path: DefinitionPath,
  agents: Map<string, PipelineAgent>,
  index: Map<string, StepInfo>,
  problems: DefinitionProblem[],
): void {
  steps.forEach((step, position) => {
    const at = [...path, position];
    const kind = stepKind(step);
    const id = stepId(step);
    const agent = "agent" in step ? agents.get(step.agent) : undefined;
    if ("agent" in step && !agent) {
      problems.push({
        path: [...at, "agent"],
        message: `no agent has the id "${step.agent}" (agents: ${[...agents.keys()].join(", ")})`,
      });
    }
    if (id !== undefined) {
      if (index.has(id)) {
        problems.push({
          path: step.id ? [...at, "id"] : [...at, "agent"],
          message: `two steps have the id "${id}": give this one an \`id\` of its own`,
        });
      } else index.set(id, { path: at, kind, agent });
    }
    for (const child of childrenOf(step))
      indexSteps(child.steps, [...at, ...child.path], agents, index, problems);
  });
}

/** The ids of every step inside `steps`, at any depth. */
function idsWithin(steps: PipelineStep[]): Set<string> {
  const ids = new Set<string>();
  for (const step of steps) {
    const id = stepId(step);
    if (id !== undefined) ids.add(id);
    for (const child of childrenOf(step)) for (const inner of idsWithin(child.steps)) ids.add(inner);
  }
  return ids;
}

/** Why step `id` cannot be read here (undefined when it can). */
function unreadable(id: string, index: Map<string, StepInfo>, available: Set<string>): string | undefined {
  const info = index.get(id);
  if (!info) return `no step has the id "${id}"`;
  if (info.kind !== "agent") return `"${id}" is a ${info.kind} step: only agent steps have outputs`;
  if (!available.has(id)) {
    return `step "${id}" cannot have run yet here (it comes later, or runs beside this one in a parallel block)`;
  }
  return undefined;
}

export function checkReferences(definition: PipelineDefinition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const agents = checkAgents(definition, problems);
  const index = new Map<string, StepInfo>();
  indexSteps(definition.steps, ["steps"], agents, index, problems);
  if (problems.length > 0) return problems;

  const checkCondition = (expression: string, path: DefinitionPath, available: Set<string>) => {
    const analyzed = analyzeCondition(expression);
    if ("error" in analyzed) {
      problems.push({ path, message: analyzed.error });
      return;
    }
    for (const read of analyzed.reads) {
      const why = unreadable(read.step, index, available);
      if (why) {
        problems.push({ path, message: `steps.${read.step}: ${why}` });
        continue;
      }
      const agent = index.get(read.step)?.agent;
      const output = agent?.output;
      if (!output) {
        problems.push({
          path,
          message: `steps.${read.step}: agent "${agent?.id}" declares no output; give it an \`output\``,
        });
      } else if (read.field !== undefined && !(read.field in output.properties)) {
        const fields = Object.keys(output.properties).join(", ");
        problems.push({
          path,
          message: `steps.${read.step}.${read.field}: agent "${agent?.id}"'s output has no field "${read.field}" (fields: ${fields})`,
        });
      }
    }
  };

  /** Checks `steps` in order; returns the ids that can have run after them. */
  const walk = (steps: PipelineStep[], path: DefinitionPath, before: Set<string>, inParallel: boolean) =>
    steps.reduce(
      (available, step, position) => visit(step, [...path, position], available, inParallel),
      before,
    );

  /** Checks one step at `at`, after `before` can have run; returns what can have run after it. */
  const visit = (
    step: PipelineStep,
    at: DefinitionPath,
    before: Set<string>,
    inParallel: boolean,
  ): Set<string> => {
    let available = new Set(before);
    if ("agent" in step) {
      step.inputs?.forEach((input, inputIndex) => {
        const why = unreadable(input, index, available);
        if (why) problems.push({ path: [...at, "inputs", inputIndex], message: `inputs: ${why}` });
      });
      const agent = agents.get(step.agent);
      if (inParallel && agent && agentWrites(agent)) {
        problems.push({
          path: [...at, "agent"],
          message: `agent "${agent.id}" may change the document, and steps in a parallel block may only read: move it after the block (one writer applies what the branches propose)`,
        });
      } else if (inParallel && agent?.plan) {
        problems.push({
          path: [...at, "agent"],
          message: `agent "${agent.id}" plans its work, and a parallel branch answers in one call: set "plan: false" or move it after the block`,
        });
      }
    } else if ("sequence" in step) {
      available = walk(step.sequence, [...at, "sequence"], available, inParallel);
    } else if ("parallel" in step) {
      // Each branch sees only what ran before the block; after it, all of them have run.
      step.parallel.forEach((branch, branchIndex) => {
        if (!("agent" in branch) && !("parallel" in branch)) {
          problems.push({
            path: [...at, "parallel", branchIndex],
            message: "a parallel branch is an agent step or a parallel block (run sequences after the block)",
          });
        }
        for (const id of visit(branch, [...at, "parallel", branchIndex], before, true)) available.add(id);
      });
    } else if ("branch" in step) {
      step.branch.forEach((entry, caseIndex) => {
        checkCondition(entry.when, [...at, "branch", caseIndex, "when"], before);
        for (const id of walk(entry.steps, [...at, "branch", caseIndex, "steps"], before, inParallel))
          available.add(id);
      });
      if (step.else) for (const id of walk(step.else, [...at, "else"], before, inParallel)) available.add(id);
    } else {
      // Inside the body, every body step may have run in an earlier round.
      available = new Set([...available, ...idsWithin(step.loop)]);
      walk(step.loop, [...at, "loop"], available, inParallel);
      checkCondition(step.until, [...at, "until"], available);
    }
    const id = stepId(step);
    if (id !== undefined) available.add(id);
    return available;
  };
  walk(definition.steps, ["steps"], new Set(), false);
  return problems;
}
