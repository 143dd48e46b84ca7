import {
  $getRoot,
  $getState,
  $setState,
  createState,
  HISTORY_MERGE_TAG,
  type LexicalEditor,
  type LexicalNode,
  mergeRegister,
  RootNode,
} from "lexical";

/**
 * Stable id of a top-level block, stored as NodeState so it is serialized with the node JSON
 * (Lexical's runtime node keys do not survive save/load). `resetOnCopyNode` makes a node copied
 * by a split (Enter in the middle of a block) start without the id of the block it came from.
 */
export const blockIdState = createState("blockId", {
  parse: (value) => (typeof value === "string" ? value : ""),
  resetOnCopyNode: true,
});

const ID_LENGTH = 8;

/** A fresh block id: "b" followed by 8 random base-36 characters. */
export function createBlockId(): string {
  let id = "b";
  while (id.length <= ID_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(ID_LENGTH))) {
      // 252 = 7 * 36: dropping the top bytes keeps every character equally likely.
      if (byte < 252 && id.length <= ID_LENGTH) id += (byte % 36).toString(36);
    }
  }
  return id;
}

/** A fresh block id that is not in `taken`. */
export function createUniqueBlockId(taken: ReadonlySet<string>): string {
  let id = createBlockId();
  while (taken.has(id)) id = createBlockId();
  return id;
}

/** The block id stored on `node`, or null when it has none. */
export function $getBlockId(node: LexicalNode): string | null {
  return $getState(node, blockIdState) || null;
}

/** Stores `id` as the block id of `node`. */
export function $setBlockId<T extends LexicalNode>(node: T, id: string): T {
  return $setState(node, blockIdState, id);
}

/** The top-level block whose id is `id`, or null. */
export function $findBlockById(id: string): LexicalNode | null {
  for (const child of $getRoot().getChildren()) {
    if ($getBlockId(child) === id) return child;
  }
  return null;
}

/** Ids of every top-level block, in document order. */
export function $getAllBlockIds(): Set<string> {
  const ids = new Set<string>();
  for (const child of $getRoot().getChildren()) {
    const id = $getBlockId(child);
    if (id !== null) ids.add(id);
  }
  return ids;
}

/** True when some top-level block lacks an id or shares one with an earlier block. */
export function $needsBlockIds(): boolean {
  const seen = new Set<string>();
  for (const child of $getRoot().getChildren()) {
    const id = $getBlockId(child);
    if (id === null || seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

/** Gives every top-level block without an id, or with a duplicate of an earlier block's id, a fresh id. */
export function $ensureBlockIds(): void {
  if (!$needsBlockIds()) return;
  const children = $getRoot().getChildren();
  const taken = new Set<string>();
  for (const child of children) {
    const id = $getBlockId(child);
    if (id !== null) taken.add(id);
  }
  const seen = new Set<string>();
  for (const child of children) {
    const id = $getBlockId(child);
    if (id !== null && !seen.has(id)) {
      seen.add(id);
      continue;
    }
    const fresh = createUniqueBlockId(taken);
    taken.add(fresh);
    seen.add(fresh);
    $setBlockId(child, fresh);
  }
}

/** Keeps every top-level block of `editor` carrying a unique block id; returns the unregister function. */
export function registerBlockIds(editor: LexicalEditor): () => void {
  return mergeRegister(
    // The root counts as dirty whenever anything in the document changes, so this sees new,
    // split and pasted blocks inside the same update (and the same history entry).
    editor.registerNodeTransform(RootNode, $ensureBlockIds),
    // setEditorState (load, collab resync) does not run transforms: repair afterwards.
    editor.registerUpdateListener(({ editorState, dirtyElements }) => {
      if (!dirtyElements.has("root")) return;
      if (editorState.read($needsBlockIds)) {
        editor.update($ensureBlockIds, { tag: HISTORY_MERGE_TAG });
      }
    }),
  );
}
