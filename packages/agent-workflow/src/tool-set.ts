import { toolDefinitions } from "@coauthor/tools/definitions";
import { type ToolSet, tool } from "ai";
import type { z } from "zod";

const cache = new Map<string, ToolSet>();

/**
 * The AI SDK tool set for `names`: descriptions and input schemas only, never
 * executed on the server. One object per list of names: the SDK derives each
 * tool's JSON schema once per tool object (a third of a model turn's overhead).
 */
export function toolSet(names: readonly string[]): ToolSet {
  const key = names.join(",");
  const cached = cache.get(key);
  if (cached) return cached;
  const tools: ToolSet = {};
  for (const name of names) {
    const definition = toolDefinitions[name as keyof typeof toolDefinitions];
    if (!definition) continue;
    const inputSchema: z.ZodType<Record<string, unknown>> = definition.input;
    tools[name] = tool({ description: definition.description, inputSchema });
  }
  cache.set(key, tools);
  return tools;
}
