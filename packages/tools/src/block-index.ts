import {
  $getEditor,
  $getNodeByKey,
  $hasUpdateTag,
  COLLABORATION_TAG,
  type EditorState,
  HISTORY_MERGE_TAG,
  type Klass,
  type LexicalEditor,
  type LexicalNode,
  mergeRegister,
  type NodeKey,
  PASTE_TAG,
  ParagraphNode,
  TextNode,
} from "lexical";
import { isWholesaleUpdate } from "./block-cache.ts";
import {
  $ensureBlockIds,
  $forEachAddressable,
  $getBlockId,
  $isAddressable,
  $setBlockId,
  createUniqueBlockId,
} from "./block-id.ts";
import { editorNodes } from "./editor-nodes.ts";

/**
 * id → node key of every addressable node, kept per editor. Transforms claim ids as nodes are
 * created or changed (incremental, no document scan); entries of removed nodes are dropped lazily,
 * because every lookup checks the node still exists and still carries the id. Updates that swap in
 * a whole editor state (setEditorState, undo/redo) run no transforms, so they mark the index stale
 * and it is rebuilt once, in one pass.
 */
type BlockIndex = { byId: Map<string, NodeKey>; stale: boolean };

const indexes = new WeakMap<LexicalEditor, BlockIndex>();

function $holds(key: NodeKey, id: string): LexicalNode | null {
  const node = $getNodeByKey(key);
  return node?.isAttached() && $getBlockId(node) === id && $isAddressable(node) ? node : null;
}

function $rebuild(index: BlockIndex, committed: EditorState): void {
  const byId = new Map<string, NodeKey>();
  $forEachAddressable((node) => {
    const id = $getBlockId(node);
    if (id === null) return;
    const other = byId.get(id);
    // On a duplicate the node that was already in the committed document keeps the id.
    if (other === undefined || (!committed._nodeMap.has(other) && committed._nodeMap.has(node.getKey()))) {
      byId.set(id, node.getKey());
    }
  });
  index.byId = byId;
  index.stale = false;
}

function $freshIndex(editor: LexicalEditor): BlockIndex | null {
  const index = indexes.get(editor);
  if (index?.stale) $rebuild(index, editor.getEditorState());
  return index ?? null;
}

function $lookup(editor: LexicalEditor, index: BlockIndex, id: string): LexicalNode | null {
  const key = index.byId.get(id);
  if (key === undefined) return null;
  const node = $holds(key, id);
  if (node !== null) return node;
  // A dead entry: the node was removed, or an aborted update claimed the id. Rebuild to be sure.
  $rebuild(index, editor.getEditorState());
  const rebuilt = index.byId.get(id);
  return rebuilt === undefined ? null : $holds(rebuilt, id);
}

/** The addressable node (top-level block or list item) whose id is `id`, or null; O(1) when ids are registered. */
export function $findBlockById(id: string): LexicalNode | null {
  const editor = $getEditor();
  const index = $freshIndex(editor);
  if (index !== null) return $lookup(editor, index, id);
  let found: LexicalNode | null = null;
  $forEachAddressable((node) => {
    if (found === null && $getBlockId(node) === id) found = node;
  });
  return found;
}

/** A block id never used in this editor's document. */
export function $createFreshBlockId(): string {
  const editor = $getEditor();
  const index = $freshIndex(editor);
  const id = createUniqueBlockId((candidate) =>
    index === null ? $findBlockById(candidate) !== null : index.byId.has(candidate),
  );
  // Reserve it so a second fresh id in the same update differs.
  index?.byId.set(id, "");
  return id;
}

function $claim(editor: LexicalEditor, node: LexicalNode): void {
  if (!$isAddressable(node)) return;
  const index = $freshIndex(editor);
  if (index === null) return;
  const key = node.getKey();
  const id = $getBlockId(node);
  if (id !== null) {
    const holder = $lookup(editor, index, id);
    if (holder?.getKey() === key) return;
    // Pasted blocks always get fresh ids; other new nodes (collaboration, load) keep theirs if free.
    const pastedNew = $hasUpdateTag(PASTE_TAG) && !editor.getEditorState()._nodeMap.has(key);
    if (holder === null && !pastedNew) {
      index.byId.set(id, key);
      return;
    }
  }
  const fresh = createUniqueBlockId((candidate) => index.byId.has(candidate));
  index.byId.set(fresh, key);
  $setBlockId(node, fresh);
}

/** Gives `node` the id `id` and indexes it at once (for a node taking over the id of one it replaces). */
export function $claimBlockId<T extends LexicalNode>(node: T, id: string): T {
  const editor = $getEditor();
  $freshIndex(editor)?.byId.set(id, node.getKey());
  return $setBlockId(node, id);
}

/** Gives `node` a fresh id and returns it. */
export function $assignFreshBlockId(node: LexicalNode): string {
  const id = $createFreshBlockId();
  $claimBlockId(node, id);
  return id;
}

/** Marks the index of `editor` for a rebuild (after an update was aborted half-way). */
export function markBlockIndexStale(editor: LexicalEditor): void {
  const index = indexes.get(editor);
  if (index !== undefined) index.stale = true;
}

/** Keeps every addressable node of `editor` carrying a unique block id, indexed by id; returns the unregister function. */
export function registerBlockIds(editor: LexicalEditor): () => void {
  indexes.set(editor, { byId: new Map(), stale: true });
  // Text node classes can never be addressable; skipping them keeps typing cheap.
  const elementClasses = [ParagraphNode, ...editorNodes].filter(
    (klass: Klass<LexicalNode>) => !(klass.prototype instanceof TextNode) && editor.hasNodes([klass]),
  );
  const unregister = mergeRegister(
    ...elementClasses.map((klass) => editor.registerNodeTransform(klass, (node) => $claim(editor, node))),
    editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      const index = indexes.get(editor);
      if (index === undefined) return;
      // Another copy's edit arrives without transforms; it carries that copy's ids, so this copy
      // only re-indexes (assigning ids here too would make two copies race to name one block).
      if (tags.has(COLLABORATION_TAG)) {
        index.stale = true;
        return;
      }
      if (!isWholesaleUpdate(dirtyElements, dirtyLeaves, tags)) return;
      index.stale = true;
      const needsRepair = editorState.read(() => {
        $rebuild(index, editorState);
        let missing = false;
        $forEachAddressable((node) => {
          const id = $getBlockId(node);
          if (id === null || index.byId.get(id) !== node.getKey()) missing = true;
        });
        return missing;
      });
      if (needsRepair) editor.update($ensureBlockIds, { tag: HISTORY_MERGE_TAG });
    }),
  );
  // Blocks that existed before registration get ids now.
  editor.update($ensureBlockIds, { discrete: true, tag: HISTORY_MERGE_TAG });
  return () => {
    unregister();
    indexes.delete(editor);
  };
}
