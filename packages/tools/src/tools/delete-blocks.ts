import type { DeleteBlocksInput, DeleteBlocksOutput } from "@coauthor/types/tools";
import { $createParagraphNode, $getRoot, type LexicalEditor, type LexicalNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $findBlockById } from "../block-id.ts";

/** Deletes the given top-level blocks, all or none; an emptied document keeps one empty paragraph. */
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
    for (const node of nodes) node.remove();
    const root = $getRoot();
    if (root.getChildrenSize() === 0) root.append($createParagraphNode());
    return { ok: true, deleted: nodes.length };
  });
}
