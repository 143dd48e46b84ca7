import {
  $getNodeByKey,
  $isElementNode,
  $isRootNode,
  type LexicalEditor,
  type LexicalNode,
  type SerializedLexicalNode,
} from "lexical";
import { sameBlockContent } from "./suggestion-diff.ts";

/**
 * The top-level blocks the active update wrote or created, in no particular order: the blocks
 * holding a node in Lexical's set of nodes cloned or created during the update (`_cloneNotNeeded`,
 * internal, as `_nodeMap` is). Only these can have changed. Measured per keystroke at 10,000
 * blocks (headless, bound to Yjs, two runs): 63–67 ms in Suggesting mode against 98–146 ms when
 * every block's nodes were walked and compared with the state before (Editing: 36–38 ms); at 50
 * blocks both are under 1 ms.
 */
export function $writtenBlocks(editor: LexicalEditor): LexicalNode[] {
  const blocks = new Map<string, LexicalNode>();
  for (const key of editor._cloneNotNeeded.keys()) {
    let node = $getNodeByKey(key);
    while (node !== null && !$isRootNode(node) && !$isRootNode(node.getParent())) node = node.getParent();
    if (node !== null && !$isRootNode(node) && node.isAttached()) blocks.set(node.getKey(), node);
  }
  return [...blocks.values()];
}

/** The block and everything in it, serialized (its NodeState — id, suggestion — included). */
export function $exportBlock(node: LexicalNode): SerializedLexicalNode {
  const json = node.exportJSON();
  if ($isElementNode(node)) {
    (json as SerializedLexicalNode & { children: SerializedLexicalNode[] }).children = node
      .getChildren()
      .map($exportBlock);
  }
  return json;
}

/**
 * Of `blocks` (top-level blocks the active update wrote; by default all of them), those it changed
 * in content (text, formatting, type) or created: compared with the editor's state before the
 * update, marks and named authors left out (a block is also written when only its neighbours
 * changed).
 */
export function $changedBlocks(editor: LexicalEditor, blocks = $writtenBlocks(editor)): LexicalNode[] {
  const previous = editor.getEditorState();
  return blocks.filter((node) => {
    const before = previous.read(
      () => {
        const old = $getNodeByKey(node.getKey());
        return old === null ? null : $exportBlock(old);
      },
      { editor },
    );
    return before === null || !sameBlockContent(before, $exportBlock(node));
  });
}
