import type { MoveBlockInput, MoveBlockOutput } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode } from "@lexical/list";
import { $getRoot, type LexicalEditor } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $isTopLevel, $resolveBlock, isFailure } from "./tool-helpers.ts";

/** Moves one block (or list item, within lists) before/after another, or to the start/end of its container. */
export function moveBlock(editor: LexicalEditor, input: MoveBlockInput): MoveBlockOutput {
  const { position } = input;
  return applyAgentEdit(editor, (): MoveBlockOutput => {
    const node = $resolveBlock(input.blockId, "blockId");
    if (isFailure(node)) return node;
    const oldParent = node.getParent();
    let place: () => void;
    if (position.at === "start" || position.at === "end") {
      const container = $isTopLevel(node) ? $getRoot() : oldParent;
      if (container === null) return toolFailure("invalid-position", "blockId: the block has no container");
      place = () => (position.at === "start" ? container.splice(0, 0, [node]) : container.append(node));
    } else {
      const anchor = $resolveBlock(position.blockId, "position.blockId");
      if (isFailure(anchor)) return anchor;
      if (anchor.is(node) || node.isParentOf(anchor)) {
        return toolFailure(
          "invalid-position",
          "position.blockId: a block cannot move next to itself or into itself",
        );
      }
      if ($isTopLevel(node) !== $isTopLevel(anchor) || $isListItemNode(node) !== $isListItemNode(anchor)) {
        return toolFailure(
          "invalid-position",
          "position.blockId: move a list item next to another list item, or a top-level block next to another top-level block",
        );
      }
      place = () => (position.at === "before" ? anchor.insertBefore(node) : anchor.insertAfter(node));
    }
    place();
    if ($isListNode(oldParent) && oldParent.getChildrenSize() === 0) oldParent.remove();
    return { ok: true, blockIds: [input.blockId] };
  });
}
