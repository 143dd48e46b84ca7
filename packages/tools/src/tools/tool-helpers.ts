import { INVALID_CONTENT } from "@coauthor/types";
import type { BlockPosition, ToolFailure } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode, type ListItemNode } from "@lexical/list";
import {
  $getRoot,
  $getSelection,
  $isParagraphNode,
  $isRangeSelection,
  $isRootNode,
  type LexicalNode,
  type ParagraphNode,
} from "lexical";
import { toolFailure } from "../agent-edit.ts";
import { $findBlockById } from "../block-index.ts";
import { type ContentProblem, describeContentProblem } from "../content-problem.ts";

/** The block (top-level block or list item) with id `id`, or an unknown-block failure naming `field`. */
export function $resolveBlock(id: string, field: string): LexicalNode | ToolFailure {
  const node = $findBlockById(id);
  return (
    node ??
    toolFailure("unknown-block", `${field}: no block has id "${id}"; read the document again for current ids`)
  );
}

/**
 * The failure for `field`'s content breaking the content rule, at a line of the tool's Markdown
 * (a ContentProblem) or where it would go (a sentence). The document is unchanged.
 */
export function contentFailure(field: string, problem: ContentProblem | string): ToolFailure {
  const what = typeof problem === "string" ? problem : describeContentProblem(problem);
  return toolFailure(
    INVALID_CONTENT,
    `${field}: ${what}, past what a document may hold; write it with less nesting, or smaller`,
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

/** The document's only block when it is a single empty paragraph (the placeholder an empty editor keeps), else null. */
function $blankDocumentPlaceholder(): ParagraphNode | null {
  const root = $getRoot();
  const only = root.getFirstChild();
  return root.getChildrenSize() === 1 && $isParagraphNode(only) && only.getTextContentSize() === 0
    ? only
    : null;
}

/**
 * Writes `nodes` into a blank document. A first paragraph's content goes into the placeholder
 * paragraph, which stays: a co-editor may be typing into it right now, their keystrokes not yet
 * here, and in the Yjs binding removing a block removes whatever is typed into it concurrently
 * (merged, their words and the agent's share a paragraph; none is lost). Any other first block
 * takes the placeholder's place (a heading or a list cannot take its content in place; the
 * concurrent-typing hazard stays for that case, see docs/collaboration.md). Returns the blocks
 * that hold the nodes' content, in order.
 */
function $writeIntoBlankDocument(placeholder: ParagraphNode, nodes: LexicalNode[]): LexicalNode[] {
  const [first, ...rest] = nodes;
  if (first === undefined) return [];
  if (!$isParagraphNode(first)) {
    $getRoot().splice(0, 1, nodes);
    return nodes;
  }
  placeholder.append(...first.getChildren());
  placeholder.setFormat(first.getFormatType());
  placeholder.setIndent(first.getIndent());
  let last: LexicalNode = placeholder;
  for (const node of rest) {
    last.insertAfter(node);
    last = node;
  }
  return [placeholder, ...rest];
}

/**
 * Where new top-level blocks go: a function that inserts them there and returns the blocks that
 * hold them (the nodes given, but for a blank document: `$writeIntoBlankDocument`), or a failure.
 */
export function $resolveTopLevelPosition(
  position: BlockPosition,
): ((nodes: LexicalNode[]) => LexicalNode[]) | ToolFailure {
  const root = $getRoot();
  if (position.at === "start" || position.at === "end") {
    return (nodes) => {
      const placeholder = $blankDocumentPlaceholder();
      if (placeholder !== null) return $writeIntoBlankDocument(placeholder, nodes);
      if (position.at === "start") root.splice(0, 0, nodes);
      else root.append(...nodes);
      return nodes;
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
    return nodes;
  };
}
