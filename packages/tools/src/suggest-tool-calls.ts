import { blockSuggestionSchema } from "@coauthor/types";
import { isWriteTool, type ToolOutput, toolSchemas } from "@coauthor/types/tools";
import type { LexicalEditor, SerializedEditorState } from "lexical";
import { toolFailure } from "./agent-edit.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { formatInputIssues, runEditorTool, runEditorToolNow } from "./editor-tools.ts";
import { applySuggestedChanges, type SuggestionAuthor } from "./suggestions.ts";
import { decideRunSuggestions } from "./tools/decide-suggestions.ts";

// A run's tool call in Suggest mode: the tool runs on a scratch copy of the document as if every
// pending suggestion were accepted, and what it changed lands in the document as suggestions
// (suggestions.ts keeps the representation, the rules and the decisions).

/**
 * The document as if every pending suggestion were accepted: blocks proposed for deletion left out.
 * What a run in Suggest mode reads and writes against, so the model never sees a block twice (old
 * and new) and its later calls build on its earlier suggestions.
 */
export function acceptedView(state: SerializedEditorState): SerializedEditorState {
  const children = state.root.children.filter((block) => {
    const suggestion = (block as { $?: { suggestion?: unknown } }).$?.suggestion;
    return blockSuggestionSchema.safeParse(suggestion).data?.change !== "deleted";
  });
  return { ...state, root: { ...state.root, children } };
}

/** A scratch editor holding the document as if every pending suggestion were accepted. */
function acceptedScratch(editor: LexicalEditor): { before: SerializedEditorState; scratch: LexicalEditor } {
  const before = acceptedView(editor.getEditorState().toJSON());
  const scratch = createDocumentEditor();
  scratch.setEditorState(scratch.parseEditorState(before));
  return { before, scratch };
}

/** Lands what a write did on the scratch copy in `editor` as suggestions by `author`. */
function landAsSuggestions(
  editor: LexicalEditor,
  call: { toolName: string; input: unknown; result: ToolOutput },
  copy: { before: SerializedEditorState; scratch: LexicalEditor },
  author: SuggestionAuthor,
): ToolOutput {
  const { toolName, input, result } = call;
  if (!isWriteTool(toolName) || !result.ok) return result;
  const reason =
    typeof input === "object" && input !== null && "reason" in input && typeof input.reason === "string"
      ? input.reason.slice(0, 200)
      : undefined;
  applySuggestedChanges(
    editor,
    copy.before.root.children,
    copy.scratch.getEditorState().toJSON().root.children,
    {
      ...author,
      reason,
    },
  );
  return result;
}

/**
 * decideSuggestions in Suggest mode: the run's own suggestions, decided in `editor` itself (not on
 * the scratch copy: a decision is not itself a suggestion). Null for any other tool.
 */
function decideOwn(
  editor: LexicalEditor,
  toolName: string,
  input: unknown,
  author: SuggestionAuthor,
): ToolOutput | null {
  if (toolName !== "decideSuggestions") return null;
  const parsed = toolSchemas.decideSuggestions.input.safeParse(input);
  if (!parsed.success) return toolFailure("invalid-input", formatInputIssues(parsed.error));
  if (author.runId === undefined)
    return toolFailure("not-suggesting", "Only a run decides its own suggestions.");
  return decideRunSuggestions(editor, parsed.data, author.runId);
}

/**
 * Runs a tool call of a run in Suggest mode: on a scratch copy of the document as if every pending
 * suggestion were accepted (`acceptedView`); a read answers from it, a write's difference lands in
 * `editor` as suggestions through `applySuggestedChanges`. The result is the tool's own (the ids it
 * names are the new blocks' ids). Failed writes change nothing.
 */
export async function runToolAsSuggestion(
  editor: LexicalEditor,
  toolName: string,
  input: unknown,
  author: SuggestionAuthor,
): Promise<ToolOutput> {
  const decided = decideOwn(editor, toolName, input, author);
  if (decided !== null) return decided;
  const copy = acceptedScratch(editor);
  const result = await runEditorTool(copy.scratch, toolName, input);
  return landAsSuggestions(editor, { toolName, input, result }, copy, author);
}

/** `runToolAsSuggestion` in one synchronous step, as `runEditorToolNow` (the server executor's). */
export function runToolAsSuggestionNow(
  editor: LexicalEditor,
  toolName: string,
  input: unknown,
  author: SuggestionAuthor,
): ToolOutput {
  const decided = decideOwn(editor, toolName, input, author);
  if (decided !== null) return decided;
  const copy = acceptedScratch(editor);
  const result = runEditorToolNow(copy.scratch, toolName, input);
  return landAsSuggestions(editor, { toolName, input, result }, copy, author);
}
