import type { RunEdits } from "@coauthor/types";
import type { SerializedLexicalNode } from "lexical";
import { type BlockSnapshot, blockKey, type RunChanges } from "./block-snapshot.ts";

// A run's changes as stored on the server (RunEdits: only the blocks it touched, plus the pre-run
// order) and back, and the merge of two recordings of one run (before and after a reload).

const pick = (snapshot: BlockSnapshot, wanted: string[]) => {
  const blocks: Record<string, SerializedLexicalNode> = {};
  for (const id of wanted) {
    const json = snapshot.json.get(id);
    if (json !== undefined) blocks[id] = json;
  }
  return blocks;
};

/** The stored form of `changes`. */
export function toRunEdits(changes: RunChanges): RunEdits {
  return {
    beforeOrder: changes.before.order,
    before: pick(changes.before, [...changes.changed, ...changes.deleted, ...changes.moved]),
    after: pick(changes.after, [...changes.inserted, ...changes.changed, ...changes.moved]),
    inserted: changes.inserted,
    deleted: changes.deleted,
    changed: changes.changed,
    moved: changes.moved,
    afterOrder: changes.after.order,
  };
}

function snapshotOf(order: string[], blocks: Record<string, { type: string }>): BlockSnapshot {
  const json = new Map(Object.entries(blocks) as [string, SerializedLexicalNode][]);
  return { order, json, keys: new Map([...json].map(([id, block]) => [id, blockKey(block)])) };
}

/** The changes a stored `RunEdits` describes (what `revertRunChanges` takes). */
export function fromRunEdits(edits: RunEdits): RunChanges {
  return {
    before: snapshotOf(edits.beforeOrder, edits.before),
    after: snapshotOf(Object.keys(edits.after), edits.after),
    inserted: edits.inserted,
    deleted: edits.deleted,
    changed: edits.changed,
    moved: edits.moved,
  };
}

const union = (...lists: string[][]) => [...new Set(lists.flat())];

/**
 * One run recorded in two parts (`earlier`, then `later`, e.g. before and after a reload), as if
 * recorded whole: a block keeps its state from before the run's first touch and takes its state
 * from the run's last; a block the run inserted and then deleted was never there.
 */
export function mergeRunEdits(earlier: RunEdits, later: RunEdits): RunEdits {
  const insertedEarlier = new Set(earlier.inserted);
  const deletedLater = new Set(later.deleted);
  const notInsertedEarlier = (ids: string[]) => ids.filter((id) => !insertedEarlier.has(id));
  const inserted = union(earlier.inserted, later.inserted).filter((id) => !deletedLater.has(id));
  const deleted = union(earlier.deleted, notInsertedEarlier(later.deleted));
  const changed = union(earlier.changed, notInsertedEarlier(later.changed)).filter(
    (id) => !deletedLater.has(id),
  );
  const moved = union(earlier.moved, notInsertedEarlier(later.moved)).filter((id) => !deletedLater.has(id));
  return {
    beforeOrder: earlier.beforeOrder,
    before: { ...later.before, ...earlier.before },
    after: { ...earlier.after, ...later.after },
    inserted,
    deleted,
    changed,
    moved,
    ...(later.afterOrder ? { afterOrder: later.afterOrder } : {}),
  };
}
