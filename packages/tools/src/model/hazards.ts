import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import { loadDocument, nextTask } from "./copies.ts";
import type { Facts, OpRecord } from "./facts.ts";
import { changedBlocks, holds, type LocalChange, recordLocal, viewOf } from "./observe.ts";
import { REMOVES_CONCURRENT, REMOVES_TEXT } from "./op-kinds.ts";
import type { Op } from "./operations.ts";

// Known hazards of Lexical's v1 Yjs binding (@lexical/yjs 0.52), left out of the model's runs so
// its other findings stay visible. Each is an open issue (issue #35), not an accepted behaviour;
// MODEL_HAZARDS=run lets them happen, and the invariants then report them.
//
// The binding keeps each block as a Y.XmlText, and each text node as a Y.Map plus its characters
// in the block's XmlText. Whenever Lexical gives a block or a text node a new identity, the binding
// deletes the old shared content and inserts new, and what another copy writes into it at the same
// time goes wrong:
//  - a block is recreated (its XmlText deleted, a new one inserted) by the agent's moveBlock (the
//    binding has no move: its child diff, CollabElementNode.syncChildrenFromLexical, recreates
//    every block from the moved block's old place to its new one), by setBlockType
//    (`node.replace`), and by Enter or a paste at the start of a heading (HeadingNode.insertNewAfter
//    replaces the heading): Yjs drops what is typed into the deleted XmlText concurrently;
//  - a text node is removed from a block that stays: Enter at the start of a block moves its text
//    nodes into the new block, a paste or a format change lets Lexical merge two text nodes (the
//    second goes), a deletion takes a whole node. Words typed into that node concurrently arrive
//    without a text node, and the binding's "dangling text" cleanup
//    (CollabElementNode.applyChildrenYjsDelta) deletes them, at an offset counted before the
//    remote change, so it can delete other text of the block as well;
//  - text is rewritten in its block: a format change splits a text node, deleting the characters
//    after the split and inserting them again after the new node, so a concurrent insertion next
//    to them lands inside a word (typed at a word's start, it splits the word the other copy bolded).
//
// So the model does not let an edit meet such a change concurrently in the same block: an op is not
// run on a copy that lacks another copy's op when one of them edits a block the other recreated,
// took a text node from or rewrote, or when both recreate one block (Enter or a paste that splits a
// list moves the items after it into a new list on each copy: each keeps the item's id on its own
// new item, and the document ends up with two blocks of one id). Ops that mean to delete a whole block (a deletion, Backspace
// joining blocks, undo and redo, the agent's deleteBlocks and replaceBlock: op-kinds.ts) are no
// hazard when they do: what is typed into a block deleted at the same time is meant to go.

/** What an op does to blocks, as far as the hazards go. */
export interface Effects {
  /** Blocks it writes into or changes. */
  edited: ReadonlySet<string>;
  /** Blocks it recreates or takes a text node from (not on purpose: see REMOVES_CONCURRENT). */
  removed: ReadonlySet<string>;
}

/** The blocks an op of `kind` removes from by hazard, from what it did in Yjs. */
export function hazardRemovals(
  kind: Op["kind"],
  change: Pick<LocalChange<unknown>, "destroyed" | "textNodesRemoved" | "textRewritten">,
): Set<string> {
  const { destroyed } = change;
  const removed = new Set([...change.textNodesRemoved].filter((id) => !destroyed.has(id)));
  if (!REMOVES_TEXT.has(kind)) for (const id of change.textRewritten) if (!destroyed.has(id)) removed.add(id);
  if (!REMOVES_CONCURRENT.has(kind)) for (const id of destroyed) removed.add(id);
  return removed;
}

/**
 * The effects `run` would have on a copy whose Yjs document is `doc`, found on a scratch editor
 * bound to a copy of that document (the real op must not run before the hazards are decided).
 * `run` returns the ids of the blocks it aims at (edited even when their text stays the same).
 */
export async function predictEffects(
  doc: Y.Doc,
  kind: Op["kind"],
  run: (editor: LexicalEditor) => Iterable<string> | Promise<Iterable<string>>,
): Promise<Effects> {
  const scratch = await loadDocument(Y.encodeStateAsUpdate(doc));
  try {
    const before = viewOf(scratch.editor);
    const change = await recordLocal(scratch.doc, async () => {
      const aimed = await run(scratch.editor);
      await nextTask();
      return aimed;
    });
    return {
      edited: new Set([...change.value, ...changedBlocks(before, viewOf(scratch.editor))]),
      removed: hazardRemovals(kind, change),
    };
  } finally {
    scratch.dispose();
    scratch.doc.destroy();
  }
}

/** The block id stored on a block's shared type, or null for other types. */
function blockIdOf(type: Y.AbstractType<unknown>): string | null {
  if (!(type instanceof Y.XmlText)) return null;
  const state = type.getAttribute("__state");
  const id = state instanceof Y.Map ? state.get("blockId") : null;
  return typeof id === "string" && id !== "" ? id : null;
}

/** The blocks holding the items of `set` in `doc` (read only: no item is split). */
type DeleteSet = Y.UndoManager["undoStack"][number]["insertions"];

function blocksOf(doc: Y.Doc, set: DeleteSet): Set<string> {
  const blocks = new Set<string>();
  for (const [client, ranges] of set.clients) {
    const structs = doc.store.clients.get(client) ?? [];
    for (const range of ranges) {
      for (let i = Y.findIndexSS(structs, range.clock); i < structs.length; i++) {
        const struct = structs[i];
        if (struct === undefined || struct.id.clock >= range.clock + range.len) break;
        let parent = struct instanceof Y.Item ? struct.parent : null;
        while (parent instanceof Y.AbstractType) {
          const id = blockIdOf(parent);
          if (id !== null) {
            blocks.add(id);
            break;
          }
          parent = parent._item?.parent ?? null;
        }
      }
    }
  }
  return blocks;
}

/**
 * What an undo or redo will touch: the blocks holding what its step inserted and deleted. It cannot
 * be tried on a scratch copy (the step lives in the copy's undo manager), so it counts as both
 * editing those blocks and removing from them.
 */
export function historyEffects(doc: Y.Doc, undo: Y.UndoManager, kind: "undo" | "redo"): Effects {
  const step = (kind === "undo" ? undo.undoStack : undo.redoStack).at(-1);
  if (step === undefined) return { edited: new Set(), removed: new Set() };
  const blocks = new Set([...blocksOf(doc, step.insertions), ...blocksOf(doc, step.deletions)]);
  return { edited: blocks, removed: blocks };
}

function meets(a: Iterable<string>, b: ReadonlySet<string>): boolean {
  for (const id of a) if (b.has(id)) return true;
  return false;
}

export class Hazards {
  /** Ops not run because they would meet a known hazard, by kind. */
  readonly excluded = new Map<string, number>();
  private readonly facts: Facts;
  /** False to run everything (MODEL_HAZARDS=run). */
  readonly enabled: boolean;

  constructor(facts: Facts, enabled: boolean) {
    this.facts = facts;
    this.enabled = enabled;
  }

  /** Ops of other copies that the copy in state `snapshot` lacks and that edited or removed something. */
  private unseen(snapshot: Y.Snapshot): OpRecord[] {
    return this.facts.records.filter(
      (record) =>
        record.stamp !== null &&
        (record.edited.size > 0 || record.removed.size > 0) &&
        !holds(snapshot, record.stamp),
    );
  }

  /** Whether an op on the copy in state `snapshot` needs its effects predicted (it may meet another copy's op). */
  mayMeet(snapshot: Y.Snapshot): boolean {
    return this.enabled && this.unseen(snapshot).length > 0;
  }

  /** Whether an op of `kind` with `effects` may run on the copy in state `snapshot`; counts it when not. */
  allows(kind: string, snapshot: Y.Snapshot, effects: Effects): boolean {
    if (!this.enabled) return true;
    // Two recreations of one block clash too: each copy gives its new block the old id (two blocks, one id).
    const clash = this.unseen(snapshot).some(
      (record) =>
        meets(record.removed, effects.edited) ||
        meets(record.edited, effects.removed) ||
        meets(record.removed, effects.removed),
    );
    if (clash) this.excluded.set(kind, (this.excluded.get(kind) ?? 0) + 1);
    return !clash;
  }
}
