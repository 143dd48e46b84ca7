// Imported by the server: names, descriptions and schemas only, no Lexical.
import { type ToolName, type ToolSchemas, toolNameSchema, toolSchemas } from "@coauthor/types/tools";
import { toolDescriptions } from "./tool-descriptions.ts";

/** What the model (and the server) knows about an editor tool. */
export type ToolDefinition<K extends ToolName = ToolName> = {
  name: K;
  description: string;
  input: ToolSchemas[K]["input"];
  output: ToolSchemas[K]["output"];
};

function define<K extends ToolName>(name: K): ToolDefinition<K> {
  return { name, description: toolDescriptions[name], ...toolSchemas[name] };
}

/** Name, LLM-facing description and schemas of every editor tool. */
export const toolDefinitions = Object.fromEntries(
  toolNameSchema.options.map((name) => [name, define(name)]),
) as {
  [K in ToolName]: ToolDefinition<K>;
};
