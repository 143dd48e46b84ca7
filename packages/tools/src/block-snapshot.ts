import { $getRoot, type EditorState, type SerializedLexicalNode } from "lexical";
import { $getBlockId } from "./block-id.ts";

// A run's changes, block by block: the top-level blocks (by stable id) before the run's first
// edit and after its last, and what the run inserted, deleted, changed or moved.

/** The top-level blocks of one document state, keyed by block id, in document order. */
export interface BlockSnapshot {
  order: string[];
  json: Map<string, SerializedLexicalNode>;
  /** A comparison key per block: its JSON without the state that only follows the caret. */
  keys: Map<string, string>;
}

/** What a run did, as the difference of two snapshots. */
export interface RunChanges {
  before: BlockSnapshot;
  after: BlockSnapshot;
  inserted: string[];
  deleted: string[];
  changed: string[];
  moved: string[];
}

// A paragraph's text format/style follow the caret (typing style), not its content; a block's
// pending suggestion and the authors it names (NodeState) are not its content either: a suggestion
// accepted since the run — which names its author — leaves the block as the run made it, so Undo
// run still takes it back.
const NOT_CONTENT = new Set(["textFormat", "textStyle", "suggestion", "writtenBy"]);

/**
 * The comparison key of a serialized block: its JSON with keys in sorted order (a block stored on
 * the server and read back may list its keys in another order), without caret state, pending
 * suggestion marks and named authors.
 */
export function blockKey(json: SerializedLexicalNode): string {
  return JSON.stringify(json, (key, value: unknown) => {
    if (NOT_CONTENT.has(key)) return undefined;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** Snapshots the top-level blocks of `state` (blocks without an id cannot be tracked and are skipped). */
export function snapshotBlocks(state: EditorState): BlockSnapshot {
  const ids = state.read(() => $getRoot().getChildren().map($getBlockId));
  const children = state.toJSON().root.children;
  const snapshot: BlockSnapshot = { order: [], json: new Map(), keys: new Map() };
  ids.forEach((id, index) => {
    const json = children[index];
    if (id === null || json === undefined || snapshot.json.has(id)) return;
    snapshot.order.push(id);
    snapshot.json.set(id, json);
    snapshot.keys.set(id, blockKey(json));
  });
  return snapshot;
}

function previousById(order: string[]): Map<string, string | null> {
  return new Map(order.map((id, index) => [id, index > 0 ? (order[index - 1] ?? null) : null]));
}

/** Blocks of both snapshots whose predecessor among the shared blocks differs (the run moved them). */
function movedBlocks(before: BlockSnapshot, after: BlockSnapshot): string[] {
  const previousBefore = previousById(before.order.filter((id) => after.json.has(id)));
  const previousAfter = previousById(after.order.filter((id) => before.json.has(id)));
  return [...previousBefore].filter(([id, previous]) => previousAfter.get(id) !== previous).map(([id]) => id);
}

/** The changes from `before` to `after`, each list in the order of the snapshot it comes from. */
export function diffSnapshots(before: BlockSnapshot, after: BlockSnapshot): RunChanges {
  return {
    before,
    after,
    inserted: after.order.filter((id) => !before.json.has(id)),
    deleted: before.order.filter((id) => !after.json.has(id)),
    changed: after.order.filter((id) => before.json.has(id) && before.keys.get(id) !== after.keys.get(id)),
    moved: movedBlocks(before, after),
  };
}

/** True when the run changed anything at all. */
export function hasChanges(changes: RunChanges): boolean {
  return changes.inserted.length + changes.deleted.length + changes.changed.length + changes.moved.length > 0;
}
