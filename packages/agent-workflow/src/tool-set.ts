import { serverToolDefinitions, toolDefinitions } from "@coauthor/tools/definitions";
import { type ToolSet, tool, zodSchema } from "ai";
import type { z } from "zod";

const cache = new Map<string, ToolSet>();

/**
 * The AI SDK tool set for `names`: descriptions and input schemas only, never
 * executed on the server. One object per list of names, each input schema
 * wrapped once (`zodSchema`): the wrapper derives its JSON schema on first use
 * and keeps it, where a bare zod schema is wrapped and converted again on every
 * model call (about 2 ms per turn for the twelve tools).
 */
export function toolSet(names: readonly string[]): ToolSet {
  const key = names.join(",");
  const cached = cache.get(key);
  if (cached) return cached;
  const tools: ToolSet = {};
  for (const name of names) {
    const definition =
      toolDefinitions[name as keyof typeof toolDefinitions] ??
      serverToolDefinitions[name as keyof typeof serverToolDefinitions];
    if (!definition) continue;
    const input: z.ZodType<Record<string, unknown>> = definition.input;
    tools[name] = tool({ description: definition.description, inputSchema: zodSchema(input) });
  }
  cache.set(key, tools);
  return tools;
}
