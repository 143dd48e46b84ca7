import {
  $getRoot,
  $isElementNode,
  HISTORIC_TAG,
  type LexicalEditor,
  mergeRegister,
  type NodeKey,
  RootNode,
} from "lexical";

/**
 * Headless editors only. On every commit Lexical compares the whole document's text before and
 * after (for text-content listeners); with a DOM the reconciler caches the root's text, headless
 * it is rebuilt from every node twice per commit, which dominates small edits to long documents
 * (~60 ms at 10,000 blocks). This keeps the root's cached text up to date instead: each block's
 * text is cached by node key and recomputed only for blocks an update dirtied.
 *
 * Consequences, acceptable for document editors (no text-content listeners): a commit that
 * changes the root itself reports a placeholder text to text-content listeners, and an older
 * editor state that shares its root with a newer one reads the newer text.
 */
const PENDING = "\u0000coauthor:text-pending";

/** Keeps the root text cache of a headless `editor` current; returns the unregister function. */
export function registerRootTextCache(editor: LexicalEditor): () => void {
  const blockText = new Map<NodeKey, string>();
  return mergeRegister(
    // A cloned root starts with no cache, and Lexical would read the whole document to fill it.
    editor.registerNodeTransform(RootNode, (root) => {
      if (root.__cachedText === null) root.getWritable().__cachedText = PENDING;
    }),
    editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      const wholesale = tags.has(HISTORIC_TAG) || (dirtyLeaves.size === 0 && dirtyElements.size === 1);
      if (wholesale) blockText.clear();
      else for (const key of dirtyElements.keys()) blockText.delete(key);
      editorState.read(() => {
        const root = $getRoot();
        let text = "";
        const seen = new Set<NodeKey>();
        for (let block = root.getFirstChild(); block !== null; block = block.getNextSibling()) {
          const key = block.getKey();
          seen.add(key);
          let own = blockText.get(key);
          if (own === undefined) {
            own = block.getTextContent();
            blockText.set(key, own);
          }
          text += own;
          if ($isElementNode(block) && !block.isInline() && block.getNextSibling() !== null) text += "\n\n";
        }
        if (blockText.size > seen.size * 2)
          for (const key of blockText.keys()) if (!seen.has(key)) blockText.delete(key);
        // The committed root is frozen for edits, not for this cache, which Lexical itself fills after reconciling.
        root.__cachedText = text;
      });
    }),
  );
}
