import type { DeleteBlocksInput, DeleteBlocksOutput } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode } from "@lexical/list";
import { $createParagraphNode, $getRoot, type LexicalEditor, type LexicalNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $findBlockById } from "../block-index.ts";

/** Removes `node`; a list left without items goes too. */
function $removeBlock(node: LexicalNode): void {
  const parent = node.getParent();
  node.remove();
  if ($isListNode(parent) && parent.getChildrenSize() === 0) {
    const holder = parent.getParent();
    $removeBlock($isListItemNode(holder) && holder.getChildrenSize() === 1 ? holder : parent);
  }
}

/** Deletes the given blocks or list items, all or none; an emptied document keeps one empty paragraph. */
export function deleteBlocks(editor: LexicalEditor, input: DeleteBlocksInput): DeleteBlocksOutput {
  return applyAgentEdit(editor, (): DeleteBlocksOutput => {
    const ids = [...new Set(input.blockIds)];
    const nodes: LexicalNode[] = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const node = $findBlockById(id);
      if (node === null) unknown.push(id);
      else nodes.push(node);
    }
    if (unknown.length > 0) {
      return toolFailure(
        "unknown-block",
        `blockIds: no block has id ${unknown.map((id) => `"${id}"`).join(", ")}; nothing was deleted`,
      );
    }
    for (const node of nodes) if (node.isAttached()) $removeBlock(node);
    const root = $getRoot();
    if (root.getChildrenSize() === 0) root.append($createParagraphNode());
    return { ok: true, deleted: nodes.length, blockIds: ids };
  });
}
