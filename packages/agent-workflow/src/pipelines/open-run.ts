import type { PipelineDefinition } from "@coauthor/types";
import { READ_TOOL_NAMES } from "@coauthor/types/tools";
import { armRunTimeout } from "../deadlines.ts";
import type { RunWriter } from "../live/run-writer.ts";
import { toolPolicy } from "../tool-policy.ts";
import { framesOf } from "../workflows/agent/steps/write-frames.ts";
import type { AgentWorkflowInput, RunEventBody } from "../workflows/agent/types.ts";
import { drawsTree, pipelineNodes } from "./pipeline-tree.ts";

// The opening of a run, done inside whichever step comes first (steps only: it reads the clock,
// the database and writes frames): the run time limit armed, the tools it may use settled, and its
// first frames written — `run-start` (id 0) and, for a pipeline the panel draws as a tree, its tree.

/** What the opening of a run settled. */
export interface RunStart {
  /** The run's base system prompt (the tools' guide). */
  system: string;
  /** The tools each agent may use, by agent id (within what the writer's role allows). */
  tools: Record<string, string[]>;
  /** When the run's time is up (epoch ms): the run time limit or the budget's wall time. */
  deadline: number;
  /** The id of the frame after the opening ones. */
  nextId: number;
}

/** The tools an agent asked for, within those the run may use. */
function toolsOf(agent: PipelineDefinition["agents"][number], allowed: string[]): string[] {
  const wanted: readonly string[] =
    agent.tools === "write"
      ? allowed
      : agent.tools === "read"
        ? READ_TOOL_NAMES
        : agent.tools === "none"
          ? []
          : agent.tools;
  return allowed.filter((name) => wanted.includes(name));
}

/** The run's base system prompt and each agent's tools (read off its definition alone). */
export function runTools(definition: PipelineDefinition): Pick<RunStart, "system" | "tools"> {
  const allowed = toolPolicy("agent");
  return {
    system: allowed.system,
    tools: Object.fromEntries(definition.agents.map((agent) => [agent.id, toolsOf(agent, allowed.tools)])),
  };
}

/** Opens a run: arms its time limit, settles its tools and writes its first frames. */
export async function openRun(
  runId: string,
  input: AgentWorkflowInput,
  definition: PipelineDefinition,
  writer: RunWriter,
): Promise<RunStart> {
  const now = Date.now();
  const runDeadline = now + input.limits.runTimeoutMs;
  armRunTimeout(runId, runDeadline);
  const opening: RunEventBody[] = [
    { type: "run-start", documentId: input.documentId, mode: "agent", model: input.modelId },
    ...(drawsTree(definition)
      ? [{ type: "pipeline" as const, name: definition.name, nodes: pipelineNodes(definition) }]
      : []),
  ];
  writer.send(framesOf(runId, 0, opening));
  return {
    ...runTools(definition),
    deadline: Math.min(runDeadline, now + definition.budget.wallTimeMs),
    nextId: opening.length,
  };
}
