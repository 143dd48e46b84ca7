import {
  AGENT_EDIT_TAG,
  type BlockSnapshot,
  diffSnapshots,
  hasChanges,
  type RunChanges,
  snapshotBlocks,
} from "@coauthor/tools";
import type { LexicalEditor } from "lexical";

/** Records a run's edits in one editor until stopped. */
export interface RunRecorder {
  /** The run's changes so far, or null while it changed nothing. */
  changes(): RunChanges | null;
  /** Stops recording; the run's changes, or null when it changed nothing. */
  stop(): RunChanges | null;
}

/**
 * Records the edits the agent makes in `editor` (updates tagged `AGENT_EDIT_TAG`), block by
 * block. Each agent update is diffed on its own, so only the blocks the agent touched count as
 * the run's: a co-editor's paragraph typed during the run is never part of it (and never undone
 * with it). The run's "before" is each touched block as it was just before the agent first
 * touched it; its "after" is the document after the agent's last edit.
 */
export function recordAgentEdits(editor: LexicalEditor, onEdit?: () => void): RunRecorder {
  let before: BlockSnapshot | null = null;
  let after: BlockSnapshot | null = null;
  const touched = new Set<string>();
  const unregister = editor.registerUpdateListener(({ prevEditorState, editorState, tags }) => {
    if (!tags.has(AGENT_EDIT_TAG)) return;
    const previous = snapshotBlocks(prevEditorState);
    const next = snapshotBlocks(editorState);
    if (before === null) before = previous;
    else {
      // A block that appeared after the run's first edit — a co-editor's, not one the run
      // inserted — gets its state from just before the agent first touched it.
      for (const id of previous.order) {
        const json = previous.json.get(id);
        const key = previous.keys.get(id);
        if (before.json.has(id) || touched.has(id) || json === undefined || key === undefined) continue;
        before.order.push(id);
        before.json.set(id, json);
        before.keys.set(id, key);
      }
    }
    const edit = diffSnapshots(previous, next);
    for (const list of [edit.inserted, edit.deleted, edit.changed, edit.moved]) {
      for (const id of list) touched.add(id);
    }
    after = next;
    onEdit?.();
  });
  const changes = (): RunChanges | null => {
    if (before === null || after === null) return null;
    const all = diffSnapshots(before, after);
    const own = (ids: string[]) => ids.filter((id) => touched.has(id));
    const result: RunChanges = {
      ...all,
      inserted: own(all.inserted),
      deleted: own(all.deleted),
      changed: own(all.changed),
      moved: own(all.moved),
    };
    return hasChanges(result) ? result : null;
  };
  return {
    changes,
    stop() {
      unregister();
      return changes();
    },
  };
}
