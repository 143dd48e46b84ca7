// Imported by the server: names, descriptions and schemas only, no Lexical.
import {
  type CommentToolName,
  SERVER_TOOL_NAMES,
  type ServerToolName,
  serverToolSchemas,
  type VersionToolName,
} from "@coauthor/types";
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

/** LLM-facing descriptions of the version tools (the server runs them; they change nothing). */
const versionToolDescriptions: Record<VersionToolName, string> = {
  listVersions:
    "List the document's saved versions, newest first: versionId, label (a writer's name for it, or what took it: before or after an agent run, after a pause in editing, before a restore), when and by whom. Versions are read-only; only a writer restores one.",
  readVersion:
    "Read one version (versionId from listVersions) as Markdown, to compare it with the document now or to bring back a passage with the editing tools.",
};

const serverToolDescriptions: Record<ServerToolName, string> = {
  ...commentToolDescriptions,
  ...versionToolDescriptions,
};

/** What the model knows about a tool the server runs: name, description and schemas. */
export type ServerToolDefinition<K extends ServerToolName = ServerToolName> = {
  name: K;
  description: string;
  input: (typeof serverToolSchemas)[K]["input"];
  output: (typeof serverToolSchemas)[K]["output"];
};

/** Name, LLM-facing description and schemas of every tool the server runs (comments, versions). */
export const serverToolDefinitions = Object.fromEntries(
  SERVER_TOOL_NAMES.map((name) => [
    name,
    { name, description: serverToolDescriptions[name], ...serverToolSchemas[name] },
  ]),
) as { [K in ServerToolName]: ServerToolDefinition<K> };
