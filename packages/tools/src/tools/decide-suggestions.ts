import type { DecideSuggestionsInput, DecideSuggestionsOutput } from "@coauthor/types/tools";
import { $getRoot, type LexicalEditor, type NodeKey } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $decideSuggestions, $getBlockSuggestion } from "../suggestions.ts";

// The agent deciding its own run's suggestions. Only a run in Suggest mode has any: the run's
// Suggest-mode path (suggest-tool-calls.ts) calls `decideRunSuggestions` with the run's id; the
// plain tool, run directly, says so.

/** decideSuggestions outside Suggest mode: nothing of this run's to decide. */
export function decideSuggestions(
  _editor: LexicalEditor,
  _input: DecideSuggestionsInput,
): DecideSuggestionsOutput {
  return toolFailure(
    "not-suggesting",
    "This run edits directly, so it has no pending suggestions of its own to decide.",
  );
}

/**
 * Accepts or rejects the pending suggestions of run `runId` in `editor` (on the blocks `blockIds`
 * names, or all of them), as one agent edit. A named block that carries no pending suggestion of
 * this run fails the call before anything changes; other authors' suggestions are never touched.
 */
export function decideRunSuggestions(
  editor: LexicalEditor,
  input: DecideSuggestionsInput,
  runId: string,
): DecideSuggestionsOutput {
  return applyAgentEdit(editor, (): DecideSuggestionsOutput => {
    const named = input.blockIds === undefined ? null : new Set(input.blockIds);
    const ids = new Set<string>();
    const found = new Set<string>();
    for (const node of $getRoot().getChildren()) {
      const suggestion = $getBlockSuggestion(node);
      const blockId = $getBlockId(node);
      if (suggestion?.runId !== runId) continue;
      if (named === null || (blockId !== null && named.has(blockId))) {
        ids.add(suggestion.id);
        if (blockId !== null) found.add(blockId);
      }
    }
    const missing = named === null ? [] : [...named].filter((id) => !found.has(id));
    if (missing.length > 0) {
      return toolFailure(
        "not-found",
        `No pending suggestion of this run on block ${missing.join(", ")}: it was decided already, or is not this run's.`,
      );
    }
    // The blocks that stay after the decision: an accepted insertion, a rejected deletion.
    const staying: NodeKey[] = [];
    for (const node of $getRoot().getChildren()) {
      const suggestion = $getBlockSuggestion(node);
      if (suggestion === null || !ids.has(suggestion.id)) continue;
      if ((input.decision === "accept") === (suggestion.change === "inserted")) staying.push(node.getKey());
    }
    $decideSuggestions(ids, input.decision);
    const blockIds = $getRoot()
      .getChildren()
      .filter((node) => staying.includes(node.getKey()))
      .flatMap((node) => $getBlockId(node) ?? []);
    return { ok: true, decided: ids.size, blockIds };
  });
}
