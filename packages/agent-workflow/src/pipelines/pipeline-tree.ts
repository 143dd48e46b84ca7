import type { PipelineDefinition, PipelineNode } from "@coauthor/types";
import { childrenOf, stepId, stepKind } from "./steps.ts";

/** The step tree as the panel draws it (every node keyed by its path). */
export function pipelineNodes(definition: PipelineDefinition): PipelineNode[] {
  const nodes: PipelineNode[] = [];
  const visit = (steps: PipelineDefinition["steps"], parent: string | undefined, prefix: string) => {
    steps.forEach((step, index) => {
      const path = prefix ? `${prefix}.${index}` : String(index);
      nodes.push({
        path,
        kind: stepKind(step),
        stepId: stepId(step),
        agent: "agent" in step ? step.agent : undefined,
        ...(parent !== undefined ? { parent } : {}),
      });
      for (const child of childrenOf(step)) visit(child.steps, path, `${path}.${child.path.join(".")}`);
    });
  };
  visit(definition.steps, undefined, "");
  return nodes;
}

/**
 * Whether the panel draws the pipeline as a tree. A pipeline of one planning agent (the default
 * agent) draws its plan instead: a tree of one node would say nothing.
 */
export function drawsTree(definition: PipelineDefinition): boolean {
  const [only, ...rest] = definition.steps;
  if (!only || rest.length > 0 || !("agent" in only)) return true;
  return !definition.agents.find((agent) => agent.id === only.agent)?.plan;
}
