import { $getRoot, $isElementNode, type LexicalEditor, type LexicalNode } from "lexical";
import * as Y from "yjs";
import { $forEachAddressable, $getBlockId } from "../block-id.ts";

// Reading what a copy holds, at the two levels the model compares: the Lexical document (text and
// block ids) and the Yjs document (which shared types an edit deleted, and which edits a copy has).

/** One addressable block of a copy: its text (nested items included) and the ids of the blocks holding it. */
export interface BlockView {
  text: string;
  ancestors: string[];
}

/** What one editor holds, as the invariants read it. */
export interface EditorView {
  /** The whole document's text (blocks separated, so no marker word spans two of them). */
  text: string;
  /** Addressable blocks by id (a repeated id keeps its first block). */
  blocks: Map<string, BlockView>;
  /** Ids in document order, repeats included; "" for a block without one. */
  ids: string[];
}

function $ancestorIds(node: LexicalNode): string[] {
  const ids: string[] = [];
  for (let parent = node.getParent(); parent !== null; parent = parent.getParent()) {
    const id = $isElementNode(parent) ? $getBlockId(parent) : null;
    if (id !== null) ids.push(id);
  }
  return ids;
}

export function viewOf(editor: LexicalEditor): EditorView {
  return editor.read(() => {
    const blocks = new Map<string, BlockView>();
    const ids: string[] = [];
    $forEachAddressable((node) => {
      const id = $getBlockId(node) ?? "";
      ids.push(id);
      if (id !== "" && !blocks.has(id)) {
        blocks.set(id, { text: node.getTextContent(), ancestors: $ancestorIds(node) });
      }
    });
    return { text: $getRoot().getTextContent(), blocks, ids };
  });
}

/** Ids of the blocks whose text differs between two views of one copy, or that one of them lacks. */
export function changedBlocks(before: EditorView, after: EditorView): string[] {
  const changed: string[] = [];
  for (const [id, block] of before.blocks) if (after.blocks.get(id)?.text !== block.text) changed.push(id);
  for (const id of after.blocks.keys()) if (!before.blocks.has(id)) changed.push(id);
  return changed;
}

/** A copy's own edit as the Yjs update it made (the other copies hold it once it reached them). */
export interface Stamp {
  update: Uint8Array;
}

/** True when `snapshot` (of a copy) holds the edit stamped `stamp`: its insertions and its deletions. */
export function holds(snapshot: Y.Snapshot, stamp: Stamp): boolean {
  return Y.snapshotContainsUpdate(snapshot, stamp.update);
}

/** What the helpers below read of a shared type (any kind of Yjs type has these). */
type Shared = Pick<Y.AbstractType<unknown>, "_map" | "_item">;

/** A value stored in a shared type's attribute map, read even when deleted (for types an edit just deleted). */
function attribute(type: Shared, key: string): unknown {
  return type._map.get(key)?.content.getContent()[0];
}

/** The block id stored in a Lexical element's shared type (its "__state" map), or null. */
function ownBlockId(type: Shared): string | null {
  if (!(type instanceof Y.XmlText)) return null;
  const state = attribute(type, "__state");
  const value = state instanceof Y.Map ? attribute(state, "blockId") : null;
  return typeof value === "string" && value !== "" ? value : null;
}

/** The id of the block holding `type`: its own, or its nearest ancestor's (a nested list, a link and a text node have none). */
function holderId(type: Shared | null): string | null {
  for (let current = type; current !== null; ) {
    const id = ownBlockId(current);
    if (id !== null) return id;
    const parent = current._item?.parent;
    current = parent instanceof Y.AbstractType ? parent : null;
  }
  return null;
}

/** A local edit as Yjs saw it. */
export interface LocalChange<T> {
  value: T;
  /** Null when the edit changed nothing in Yjs. */
  stamp: Stamp | null;
  /** Ids of the blocks whose shared types it deleted. */
  destroyed: Set<string>;
  /** Ids of the blocks in which it deleted a text node's shared map. */
  textNodesRemoved: Set<string>;
  /**
   * Ids of the blocks in which it deleted characters and inserted characters: a text node split (a
   * format change, a paste) deletes the text after the split and inserts it again after the new node.
   */
  textRewritten: Set<string>;
}

/**
 * Runs `change` (a local edit of `doc`) and returns its value, its stamp (null when it changed nothing in
 * Yjs) and the ids of the blocks whose shared types it deleted. A deleted type takes with it
 * whatever another copy writes into it concurrently: that is how concurrent text gets lost.
 */
export async function recordLocal<T>(doc: Y.Doc, change: () => T | Promise<T>): Promise<LocalChange<T>> {
  const destroyed = new Set<string>();
  const textNodesRemoved = new Set<string>();
  const charactersDeleted = new Set<string>();
  const charactersInserted = new Set<string>();
  const updates: Uint8Array[] = [];
  const blockOf = (item: Y.Item) => holderId(item.parent instanceof Y.AbstractType ? item.parent : null);
  const onTransaction = (transaction: Y.Transaction) => {
    Y.iterateDeletedStructs(transaction, transaction.deleteSet, (struct) => {
      if (!(struct instanceof Y.Item)) return;
      const holder = blockOf(struct);
      if (struct.content instanceof Y.ContentString && holder !== null) charactersDeleted.add(holder);
      if (!(struct.content instanceof Y.ContentType) || struct.parentSub !== null) return;
      // A shared type in a sequence: a block, a nested list (it has no id: its item counts as
      // recreated), a link or a text node (inline: its block loses a text node).
      const type = struct.content.type;
      const id = ownBlockId(type);
      if (id !== null) destroyed.add(id);
      else if (holder !== null && attribute(type, "__type") === "list") destroyed.add(holder);
      else if (holder !== null) textNodesRemoved.add(holder);
    });
    // What this copy inserted: its own structs from the clock before the transaction on.
    const own = doc.store.clients.get(doc.clientID) ?? [];
    const from = transaction.beforeState.get(doc.clientID) ?? 0;
    if (own.length === 0 || from >= (transaction.afterState.get(doc.clientID) ?? 0)) return;
    for (let i = Y.findIndexSS(own, from); i < own.length; i++) {
      const struct = own[i];
      const holder =
        struct instanceof Y.Item && struct.content instanceof Y.ContentString ? blockOf(struct) : null;
      if (holder !== null && !struct?.deleted) charactersInserted.add(holder);
    }
  };
  const onUpdate = (update: Uint8Array) => {
    updates.push(update);
  };
  doc.on("afterTransaction", onTransaction);
  doc.on("update", onUpdate);
  let value: T;
  try {
    value = await change();
  } finally {
    doc.off("afterTransaction", onTransaction);
    doc.off("update", onUpdate);
  }
  return {
    value,
    stamp: updates.length > 0 ? { update: Y.mergeUpdates(updates) } : null,
    destroyed,
    textNodesRemoved,
    textRewritten: new Set([...charactersDeleted].filter((id) => charactersInserted.has(id))),
  };
}
