import { WorkflowAgent } from "@ai-sdk/workflow";
import { toolDefinitions } from "@coauthor/tools/definitions";
import type { ToolSet } from "ai";
import { createHook, getWorkflowMetadata, getWritable } from "workflow";
import type { z } from "zod";
import { peerHookToken } from "./hook-token-name.ts";
import { PeerScriptedModel } from "./scripted-model.ts";

/** Coauthor's editing tools as the peer sees them: the same names and input schemas. */
const PEER_TOOL_NAMES = ["readDocument", "insertBlocks", "replaceBlock", "deleteBlocks"] as const;

/**
 * Benchmark reference only (never used by the product): the field's own durable agent, the AI
 * SDK's `WorkflowAgent`, driving Coauthor's browser-side tools the way the Workflow DevKit's
 * human-in-the-loop guide prescribes for work done outside the server: each tool's `execute`
 * runs in the workflow, creates a hook named after its tool call and waits; the browser reads
 * the `tool-call` part from the stream, runs the tool and posts its result, which resumes the
 * hook (`/api/bench/peer/callback`). Same scripted model as Coauthor (the offline model).
 */
export async function peerAgentWorkflow(args: { prompt: string }): Promise<number> {
  "use workflow";
  const { workflowRunId: runId } = getWorkflowMetadata();
  const tools: ToolSet = {};
  for (const name of PEER_TOOL_NAMES) {
    const inputSchema: z.ZodType<Record<string, unknown>> = toolDefinitions[name].input;
    tools[name] = {
      description: toolDefinitions[name].description,
      inputSchema,
      execute: async (_input: unknown, { toolCallId }: { toolCallId: string }) => {
        using hook = createHook<{ result: unknown }>({ token: peerHookToken(runId, toolCallId) });
        const { result } = await hook;
        return result;
      },
    };
  }
  const agent = new WorkflowAgent({ model: new PeerScriptedModel(), tools });
  const result = await agent.stream({
    messages: [{ role: "user", content: args.prompt }],
    writable: getWritable(),
  });
  return result.steps.length;
}
