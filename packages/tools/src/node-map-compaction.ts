import type { EditorState, LexicalEditor } from "lexical";

/**
 * Lexical (≥ 0.40) keeps large node maps as a copy-on-write "GenMap": an immutable snapshot plus
 * a "nursery" of the writes made since the last compaction. Every update copies the nursery on its
 * first write, and Lexical compacts only when the nursery holds half the document. On a long
 * document that makes each update copy, on average, a quarter of the node map (~12,000 entries at
 * 10,000 blocks), and a document whose ids were filled in on load starts with a nursery of every
 * block. Compacting once the nursery passes ~√(size) keeps both the per-update copy and the
 * amortized compaction cost near √(size) entries.
 *
 * GenMap is internal to Lexical, so it is detected structurally; a plain Map is left alone.
 */
type GenerationalMap = {
  readonly size: number;
  _nursery: ReadonlyMap<unknown, unknown> | undefined;
  compact(force: boolean): unknown;
};

const MIN_NURSERY = 256;

function isGenerationalMap(map: object): map is GenerationalMap {
  return "_nursery" in map && "compact" in map && typeof map.compact === "function";
}

/** The nursery size from which the node map of a `size`-node document is compacted. */
export function compactionThreshold(size: number): number {
  return Math.max(MIN_NURSERY, Math.ceil(4 * Math.sqrt(size)));
}

/** Folds the pending writes of `state`'s node map into its snapshot when they have grown past the threshold; returns whether it did. */
export function compactNodeMap(state: EditorState): boolean {
  const map = state._nodeMap;
  if (!isGenerationalMap(map)) return false;
  const nursery = map._nursery?.size ?? 0;
  if (nursery <= compactionThreshold(map.size)) return false;
  // Same entries before and after: only the internal layout changes, so a committed state may be compacted.
  map.compact(true);
  return true;
}

/** Keeps the node map of every committed state of `editor` compact; returns the unregister function. */
export function registerNodeMapCompaction(editor: LexicalEditor): () => void {
  compactNodeMap(editor.getEditorState());
  return editor.registerUpdateListener(({ editorState }) => {
    compactNodeMap(editorState);
  });
}
