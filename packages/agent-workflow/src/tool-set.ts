import { toolDefinitions } from "@coauthor/tools/definitions";
import { type ToolSet, tool } from "ai";
import type { z } from "zod";

/** The AI SDK tool set for `names`: descriptions and input schemas only, never executed on the server. */
export function toolSet(names: readonly string[]): ToolSet {
  const tools: ToolSet = {};
  for (const name of names) {
    const definition = toolDefinitions[name as keyof typeof toolDefinitions];
    if (!definition) continue;
    const inputSchema: z.ZodType<Record<string, unknown>> = definition.input;
    tools[name] = tool({ description: definition.description, inputSchema });
  }
  return tools;
}
