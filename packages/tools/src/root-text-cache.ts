import {
  $getRoot,
  $isElementNode,
  type LexicalEditor,
  type LexicalNode,
  mergeRegister,
  type NodeKey,
  RootNode,
} from "lexical";
import { isWholesaleUpdate } from "./block-cache.ts";

/**
 * Headless editors only. On every commit Lexical compares the whole document's text before and
 * after (for text-content listeners); with a DOM the reconciler caches the root's text, headless
 * it is rebuilt from every node twice per commit (~60 ms at 10,000 blocks). Here every root node
 * of the editor answers its cached text lazily: the text is computed from per-block texts (each
 * recomputed only after an update dirtied its block) when someone reads it, and remembered until
 * the next commit. Agent edits (`quietTextCompare`) skip the computation altogether, so a small
 * edit to a long document does no whole-document work.
 *
 * Consequences, acceptable for document editors (no text-content listeners): text-content
 * listeners are not told about changes, and an older editor state reads the text of the document
 * as it was when the text was last computed.
 */
type TextState = {
  blockText: Map<NodeKey, { node: LexicalNode; text: string }>;
  /** The document's text, or null when an update has changed it since it was computed. */
  text: string | null;
  /** The last computed text, given to Lexical's before/after comparison during quiet commits. */
  last: string;
  quiet: boolean;
};

const states = new WeakMap<LexicalEditor, TextState>();
const lazyRoots = new WeakSet<RootNode>();

function $computeText(state: TextState): string {
  let text = "";
  for (let block = $getRoot().getFirstChild(); block !== null; block = block.getNextSibling()) {
    const key = block.getKey();
    let own = state.blockText.get(key);
    if (own?.node !== block) {
      own = { node: block, text: block.getTextContent() };
      state.blockText.set(key, own);
    }
    text += own.text;
    if ($isElementNode(block) && !block.isInline() && block.getNextSibling() !== null) text += "\n\n";
  }
  return text;
}

function rootText(state: TextState): string {
  if (state.text !== null) return state.text;
  // An agent edit's commit compares the texts only for text-content listeners, which document editors do not use.
  if (state.quiet) return state.last;
  state.text = $computeText(state);
  state.last = state.text;
  return state.text;
}

/** Makes `root` answer its cached text from the editor's lazily computed document text. */
function makeLazy(root: RootNode, state: TextState): void {
  if (lazyRoots.has(root)) return;
  lazyRoots.add(root);
  Object.defineProperty(root, "__cachedText", {
    configurable: true,
    enumerable: true,
    get: () => rootText(state),
    // Lexical writes the field only from the DOM reconciler; the lazy text stays authoritative.
    set: () => {},
  });
}

/**
 * Runs `fn` (an update of `editor`); once `fn` calls `mute` (at the end of its update function),
 * the update's commit does not compute the document text for Lexical's before/after comparison.
 */
export function quietTextCompare<T>(editor: LexicalEditor, fn: (mute: () => void) => T): T {
  const state = states.get(editor);
  if (state === undefined) return fn(() => {});
  try {
    return fn(() => {
      state.quiet = true;
    });
  } finally {
    state.quiet = false;
  }
}

/** Keeps the root text cache of a headless `editor` current; returns the unregister function. */
export function registerRootTextCache(editor: LexicalEditor): () => void {
  const state: TextState = { blockText: new Map(), text: null, last: "", quiet: false };
  states.set(editor, state);
  const committedRoot = (): RootNode | undefined => {
    const root = editor.getEditorState()._nodeMap.get("root");
    return root instanceof RootNode ? root : undefined;
  };
  const current = committedRoot();
  if (current !== undefined) makeLazy(current, state);
  const unregister = mergeRegister(
    // A root cloned by an update starts with no cached text, and Lexical would read the whole document to fill it.
    editor.registerNodeTransform(RootNode, (root) => makeLazy(root, state)),
    editor.registerUpdateListener(({ dirtyElements, dirtyLeaves, tags }) => {
      if (isWholesaleUpdate(dirtyElements, dirtyLeaves, tags)) state.blockText.clear();
      else for (const key of dirtyElements.keys()) state.blockText.delete(key);
      if (dirtyElements.size > 0 || dirtyLeaves.size > 0) state.text = null;
      const root = committedRoot();
      if (root !== undefined) makeLazy(root, state);
    }),
  );
  return () => {
    unregister();
    states.delete(editor);
  };
}
