import { getWritable } from "workflow";
import { createAgentCaller } from "../../../trpc/index.ts";
import type { AgentWorkflowInput } from "../types.ts";
import { framesOf } from "./write-frames.ts";

/** The planner's answer: tools the run may use and its system prompt. */
export interface PlannerResult {
  tools: string[];
  system: string;
  nextId: number;
}

/**
 * Planner step: announces the run (`run-start`, the first frame) and asks the
 * tRPC planner, through a server caller (no HTTP), which tools this run may use.
 */
export async function callPlanner(runId: string, input: AgentWorkflowInput): Promise<PlannerResult> {
  "use step";
  const writer = getWritable<string>().getWriter();
  try {
    await writer.write(
      framesOf(runId, 0, [
        { type: "run-start", documentId: input.documentId, mode: "agent", model: input.modelId },
      ]),
    );
  } finally {
    writer.releaseLock();
  }
  const caller = createAgentCaller({ userId: input.userId });
  const plan = await caller.llm.plan({ documentId: input.documentId, mode: "agent", prompt: input.prompt });
  return { tools: plan.tools, system: plan.system, nextId: 1 };
}
