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
  /**
   * The changes since the last call (from the start, the first time), or null when there were
   * none: the parts a tab adds to the run's stored edits one after another, so parts that other
   * executors (the server, another tab) added in between are kept.
   */
  takeChanges(): RunChanges | null;
  /** Stops recording; the run's changes, or null when it changed nothing. */
  stop(): RunChanges | null;
}

/** The blocks a stretch of agent edits touched, each with its state from before its first touch. */
interface Stretch {
  before: BlockSnapshot | null;
  touched: Set<string>;
}

/** Adds one agent edit (`previous` → its diff `edit`) to `stretch`. */
function extend(stretch: Stretch, previous: BlockSnapshot, edit: RunChanges): void {
  const { before, touched } = stretch;
  // A copy: the whole run's stretch and the one since the last take grow the same snapshot apart.
  if (before === null)
    stretch.before = {
      order: [...previous.order],
      json: new Map(previous.json),
      keys: new Map(previous.keys),
    };
  else {
    // A block that appeared after the stretch's first edit — a co-editor's, not one the run
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
  for (const list of [edit.inserted, edit.deleted, edit.changed, edit.moved]) {
    for (const id of list) touched.add(id);
  }
}

/** What `stretch` changed, ending in `after`; null when nothing. */
function changesOf(stretch: Stretch, after: BlockSnapshot | null): RunChanges | null {
  if (stretch.before === null || after === null) return null;
  const all = diffSnapshots(stretch.before, after);
  const own = (ids: string[]) => ids.filter((id) => stretch.touched.has(id));
  const result: RunChanges = {
    ...all,
    inserted: own(all.inserted),
    deleted: own(all.deleted),
    changed: own(all.changed),
    moved: own(all.moved),
  };
  return hasChanges(result) ? result : null;
}

/**
 * Records the edits the agent makes in `editor` (updates tagged `AGENT_EDIT_TAG`), block by
 * block. Each agent update is diffed on its own, so only the blocks the agent touched count as
 * the run's: a co-editor's paragraph typed during the run is never part of it (and never undone
 * with it). The run's "before" is each touched block as it was just before the agent first
 * touched it; its "after" is the document after the agent's last edit.
 */
export function recordAgentEdits(editor: LexicalEditor, onEdit?: () => void): RunRecorder {
  const whole: Stretch = { before: null, touched: new Set() };
  let sinceTaken: Stretch = { before: null, touched: new Set() };
  let after: BlockSnapshot | null = null;
  const unregister = editor.registerUpdateListener(({ prevEditorState, editorState, tags }) => {
    if (!tags.has(AGENT_EDIT_TAG)) return;
    const previous = snapshotBlocks(prevEditorState);
    const next = snapshotBlocks(editorState);
    const edit = diffSnapshots(previous, next);
    extend(whole, previous, edit);
    extend(sinceTaken, previous, edit);
    after = next;
    onEdit?.();
  });
  const changes = () => changesOf(whole, after);
  return {
    changes,
    takeChanges() {
      const taken = changesOf(sinceTaken, after);
      sinceTaken = { before: null, touched: new Set() };
      return taken;
    },
    stop() {
      unregister();
      return changes();
    },
  };
}
