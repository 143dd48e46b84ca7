import {
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type ToolOutputOf,
  toolNameSchema,
} from "@coauthor/types/tools";
import type { LexicalEditor } from "lexical";
import type { z } from "zod";
import { toolFailure } from "./agent-edit.ts";
import { type ToolDefinition, toolDefinitions } from "./definitions.ts";
import { decideSuggestions } from "./tools/decide-suggestions.ts";
import { deleteBlocks } from "./tools/delete-blocks.ts";
import { findText } from "./tools/find-text.ts";
import { formatText } from "./tools/format-text.ts";
import { insertBlocks } from "./tools/insert-blocks.ts";
import { insertTable } from "./tools/insert-table.ts";
import { moveBlock } from "./tools/move-block.ts";
import { readDocument } from "./tools/read-document.ts";
import { readSelection } from "./tools/read-selection.ts";
import { replaceBlock } from "./tools/replace-block.ts";
import { replaceText } from "./tools/replace-text.ts";
import { setBlockType } from "./tools/set-block-type.ts";
import { updateTableCell } from "./tools/update-table-cell.ts";

/** A tool definition plus its implementation against a Lexical editor. */
export type EditorTool<K extends ToolName = ToolName> = ToolDefinition<K> & {
  run(editor: LexicalEditor, input: ToolInput<K>): Promise<ToolOutputOf<K>>;
};

type Implementations = { [K in ToolName]: (editor: LexicalEditor, input: ToolInput<K>) => ToolOutputOf<K> };

const implementations: Implementations = {
  readDocument,
  readSelection,
  findText,
  insertBlocks,
  replaceBlock,
  replaceText,
  deleteBlocks,
  moveBlock,
  setBlockType,
  formatText,
  insertTable,
  updateTableCell,
  decideSuggestions,
};

function defineTool<K extends ToolName>(name: K): EditorTool<K> {
  const run = implementations[name];
  return { ...toolDefinitions[name], run: async (editor, input) => run(editor, input) };
}

/** Every editor tool, keyed by name. */
export const editorTools = Object.fromEntries(
  toolNameSchema.options.map((name) => [name, defineTool(name)]),
) as {
  [K in ToolName]: EditorTool<K>;
};

/** One line per zod issue, each naming the field it is about. */
export function formatInputIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "input"}: ${issue.message}`)
    .join("; ");
}

async function runTool<K extends ToolName>(
  tool: EditorTool<K>,
  editor: LexicalEditor,
  input: unknown,
): Promise<ToolOutput> {
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) return toolFailure("invalid-input", formatInputIssues(parsed.error));
  // safeParse on a generic schema widens to the union of all inputs; the data did pass tool K's schema.
  return tool.run(editor, parsed.data as ToolInput<K>);
}

/** Validates `input` and runs tool `name` on `editor`; bad names, bad input and internal errors come back as failures. */
export async function runEditorTool(
  editor: LexicalEditor,
  name: string,
  input: unknown,
): Promise<ToolOutput> {
  const toolName = toolNameSchema.safeParse(name);
  if (!toolName.success) return unknownTool(name);
  try {
    return await runTool(editorTools[toolName.data], editor, input);
  } catch (error) {
    return toolFailure("internal-error", error instanceof Error ? error.message : String(error));
  }
}

/**
 * `runEditorTool` in one synchronous step (every tool's work is synchronous): for the server, which
 * runs a tool inside the sync server's transaction on a document (nothing may come in between).
 */
export function runEditorToolNow(editor: LexicalEditor, name: string, input: unknown): ToolOutput {
  const toolName = toolNameSchema.safeParse(name);
  if (!toolName.success) return unknownTool(name);
  const run = implementations[toolName.data] as (editor: LexicalEditor, input: unknown) => ToolOutput;
  const parsed = editorTools[toolName.data].input.safeParse(input);
  if (!parsed.success) return toolFailure("invalid-input", formatInputIssues(parsed.error));
  try {
    return run(editor, parsed.data);
  } catch (error) {
    return toolFailure("internal-error", error instanceof Error ? error.message : String(error));
  }
}

function unknownTool(name: string): ToolOutput {
  return toolFailure(
    "unknown-tool",
    `No editor tool named "${name}"; known: ${toolNameSchema.options.join(", ")}`,
  );
}
