// Imported by the server: names, descriptions and schemas only, no Lexical.
import { COMMENT_TOOL_NAMES, type CommentToolName, commentToolSchemas } from "@coauthor/types";
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

/** LLM-facing descriptions of the comment tools (the server runs them; threads never change the text). */
const commentToolDescriptions: Record<CommentToolName, string> = {
  listComments:
    "List the document's comment threads (default: open ones) with the text each is on (\"quote\"), whether that text is still there (onText) and each comment's author and text.",
  addComment:
    "Start a comment thread on text: blockId is the block (from readDocument), quote the exact text inside it to comment on (its first occurrence is used, at most 500 characters), comment what you have to say (plain text, links only https, http or mailto). Comments never change the text: use them to point out problems, ask questions or explain a suggestion.",
  replyToComment: "Reply in a comment thread (threadId from listComments) with comment.",
  resolveComment:
    "Resolve a comment thread: only one you started, or when the writer asked you to resolve threads.",
};

/** What the model knows about a comment tool: name, description and schemas. */
export type CommentToolDefinition<K extends CommentToolName = CommentToolName> = {
  name: K;
  description: string;
  input: (typeof commentToolSchemas)[K]["input"];
  output: (typeof commentToolSchemas)[K]["output"];
};

/** Name, LLM-facing description and schemas of every comment tool. */
export const commentToolDefinitions = Object.fromEntries(
  COMMENT_TOOL_NAMES.map((name) => [
    name,
    { name, description: commentToolDescriptions[name], ...commentToolSchemas[name] },
  ]),
) as { [K in CommentToolName]: CommentToolDefinition<K> };
