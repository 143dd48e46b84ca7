import type { BlockPosition, ToolFailure } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode, type ListItemNode } from "@lexical/list";
import {
  $getRoot,
  $getSelection,
  $isParagraphNode,
  $isRangeSelection,
  $isRootNode,
  type LexicalNode,
} from "lexical";
import { toolFailure } from "../agent-edit.ts";
import { $findBlockById } from "../block-index.ts";

/** The block (top-level block or list item) with id `id`, or an unknown-block failure naming `field`. */
export function $resolveBlock(id: string, field: string): LexicalNode | ToolFailure {
  const node = $findBlockById(id);
  return (
    node ??
    toolFailure("unknown-block", `${field}: no block has id "${id}"; read the document again for current ids`)
  );
}

/** True when `value` is a tool failure rather than a node. */
export function isFailure(value: unknown): value is ToolFailure {
  return typeof value === "object" && value !== null && "ok" in value && value.ok === false;
}

/** True for a child of the root. */
export function $isTopLevel(node: LexicalNode): boolean {
  return $isRootNode(node.getParent());
}

/** True for a list item that holds only a nested list (Lexical's wrapper for indentation). */
export function $isWrapperItem(node: LexicalNode): node is ListItemNode {
  return $isListItemNode(node) && node.getChildrenSize() === 1 && $isListNode(node.getFirstChild());
}

/** True for a document that is a single empty paragraph: the placeholder an empty editor keeps. */
function $isBlankDocument(): boolean {
  const root = $getRoot();
  const only = root.getFirstChild();
  return root.getChildrenSize() === 1 && $isParagraphNode(only) && only.getTextContentSize() === 0;
}

/** Where new top-level blocks go: a function that inserts them there, or a failure. */
export function $resolveTopLevelPosition(
  position: BlockPosition,
): ((nodes: LexicalNode[]) => void) | ToolFailure {
  const root = $getRoot();
  if (position.at === "start" || position.at === "end") {
    return (nodes) => {
      // Writing into an empty document replaces its placeholder paragraph instead of keeping a blank line.
      if ($isBlankDocument()) root.splice(0, 1, nodes);
      else if (position.at === "start") root.splice(0, 0, nodes);
      else root.append(...nodes);
    };
  }
  let anchor: LexicalNode | null;
  if (position.at === "selection") {
    const selection = $getSelection();
    anchor = $isRangeSelection(selection) ? selection.focus.getNode().getTopLevelElement() : null;
    if (anchor === null)
      return toolFailure(
        "no-selection",
        "position: the user has no selection; use start, end, before or after instead",
      );
  } else {
    const found = $resolveBlock(position.blockId, "position.blockId");
    if (isFailure(found)) return found;
    if (!$isTopLevel(found)) {
      return toolFailure(
        "invalid-position",
        `position.blockId: "${position.blockId}" is a list item; to add list items insert a Markdown list next to it, otherwise use the id of the list itself`,
      );
    }
    anchor = found;
  }
  const target = anchor;
  const before = position.at === "before";
  return (nodes) => {
    let last = target;
    if (before) for (const node of nodes) target.insertBefore(node);
    else
      for (const node of nodes) {
        last.insertAfter(node);
        last = node;
      }
  };
}
