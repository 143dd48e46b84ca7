import { $getNodeByKey, $isRootNode, type LexicalEditor, type LexicalNode } from "lexical";

/**
 * Calls `mark` with each top-level block an update touched and its element, after every update:
 * for marks kept on block elements from state in the shared document (suggestions, authorship).
 * Only the elements an update touched: a block whose state changes is dirty, and a keystroke
 * touches one block, not the document.
 */
export function registerTouchedBlocks(
  editor: LexicalEditor,
  mark: (node: LexicalNode, element: HTMLElement) => void,
): () => void {
  return editor.registerUpdateListener(({ editorState, dirtyElements }) => {
    editorState.read(() => {
      for (const key of dirtyElements.keys()) {
        const node = $getNodeByKey(key);
        if (node === null || !$isRootNode(node.getParent())) continue;
        const element = editor.getElementByKey(key);
        if (element !== null) mark(node, element);
      }
    });
  });
}
