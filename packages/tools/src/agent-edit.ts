import type { ToolFailure } from "@coauthor/types/tools";
import type { LexicalEditor } from "lexical";
import { markBlockIndexStale } from "./block-index.ts";
import { quietTextCompare } from "./root-text-cache.ts";

/** Update tag on every edit made by the agent, so the panel can highlight and undo a run's edits. */
export const AGENT_EDIT_TAG = "coauthor-agent";

/** Builds a tool failure result. */
export function toolFailure(code: string, message: string): ToolFailure {
  return { ok: false, code, message };
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `$fn` as one discrete, tagged update (one history entry) and returns its result.
 * `$fn` must validate everything before its first mutation and report bad input by returning a
 * failure value (not by throwing); a thrown error is an internal error and aborts the update.
 */
export function applyAgentEdit<T>(editor: LexicalEditor, $fn: () => T): T {
  const before = editor.getEditorState();
  let outcome: Outcome<T> | undefined;
  try {
    quietTextCompare(editor, (mute) =>
      editor.update(
        () => {
          try {
            outcome = { ok: true, value: $fn() };
            mute();
          } catch (error) {
            outcome = { ok: false, error };
            // Rethrow so Lexical discards the pending state instead of committing a partial edit.
            throw error;
          }
        },
        { tag: AGENT_EDIT_TAG, discrete: true },
      ),
    );
  } catch (error) {
    // An editor whose onError rethrows leaves the aborted pending state behind: put the
    // pre-edit state back so the aborted edit can never be committed later.
    editor.setEditorState(before, { tag: AGENT_EDIT_TAG });
    outcome ??= { ok: false, error };
  }
  if (outcome === undefined) throw new Error("The editor did not run the agent edit");
  if (!outcome.ok) {
    // Ids claimed inside the aborted update point at nodes that never existed.
    markBlockIndexStale(editor);
    throw outcome.error;
  }
  return outcome.value;
}
