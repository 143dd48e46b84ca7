import { type EditorState, HISTORIC_TAG, type LexicalEditor, type LexicalNode, type NodeKey } from "lexical";

/**
 * A value derived from one top-level block of an editor's committed document (its text, its
 * Markdown), kept across updates until an update touches the block. Lexical marks every ancestor
 * of a changed node dirty, so a block whose key is not among an update's dirty elements has the
 * same content as before, even when it is the same node object.
 */
export type BlockCache<T> = {
  /** The cached value for `block` of the committed state `state`, if still valid. */
  get(state: EditorState, block: LexicalNode): T | undefined;
  /** Remembers `value` for `block` of the committed state `state` (ignored for any other state). */
  set(state: EditorState, block: LexicalNode, value: T): void;
  /** How many blocks have a cached value (for tests). */
  readonly size: number;
};

type Entry<T> = { node: LexicalNode; value: T };

/** True when an update replaced the editor state wholesale (setEditorState, undo/redo) instead of editing nodes. */
export function isWholesaleUpdate(
  dirtyElements: Map<NodeKey, boolean>,
  dirtyLeaves: Set<NodeKey>,
  tags: Set<string>,
): boolean {
  if (tags.has(HISTORIC_TAG)) return true;
  // setEditorState marks only the root dirty; an ordinary edit also marks the blocks it touched.
  return dirtyLeaves.size === 0 && dirtyElements.size === 1 && dirtyElements.has("root");
}

/** A per-block cache for `editor`'s committed states, invalidated by its updates; returns it and the unregister function. */
export function createBlockCache<T>(editor: LexicalEditor): [BlockCache<T>, () => void] {
  const entries = new Map<NodeKey, Entry<T>>();
  // Values are only valid for the state the cache was last brought up to date with; a reader that
  // runs before this listener (another update listener) or on another state bypasses the cache.
  let synced = editor.getEditorState();
  const unregister = editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
    if (isWholesaleUpdate(dirtyElements, dirtyLeaves, tags)) entries.clear();
    else for (const key of dirtyElements.keys()) entries.delete(key);
    synced = editorState;
  });
  const cache: BlockCache<T> = {
    get(state, block) {
      if (state !== synced) return undefined;
      const entry = entries.get(block.getKey());
      return entry?.node === block ? entry.value : undefined;
    },
    set(state, block, value) {
      if (state === synced) entries.set(block.getKey(), { node: block, value });
    },
    get size() {
      return entries.size;
    },
  };
  return [cache, unregister];
}

/** One lazily registered block cache per editor, created on first use and kept for the editor's lifetime. */
export function lazyBlockCache<T>(): (editor: LexicalEditor) => BlockCache<T> {
  const caches = new WeakMap<LexicalEditor, BlockCache<T>>();
  return (editor) => {
    let cache = caches.get(editor);
    if (cache === undefined) {
      [cache] = createBlockCache<T>(editor);
      caches.set(editor, cache);
    }
    return cache;
  };
}
