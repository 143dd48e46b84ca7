import { $isListNode } from "@lexical/list";
import { $isMarkNode, $unwrapMarkNode, $wrapSelectionInMarkNode, type MarkNode } from "@lexical/mark";
import {
  $createRangeSelection,
  $getRoot,
  $isElementNode,
  $isTextNode,
  type ElementNode,
  type LexicalNode,
  type RangeSelection,
  type TextNode,
} from "lexical";
import { $getBlockId, $isAddressable } from "./block-id.ts";
import { $findBlockById } from "./block-index.ts";

// A comment thread's anchor is a mark around the commented text (Lexical's MarkNode, holding the
// thread ids): part of the document, so it moves with the text whoever edits it, syncs like text,
// and undo / redo bring it back with the text. The thread itself (comments, status) lives beside
// the document (comment-threads.ts); the marks are the one source of truth for where it is.
//
// A range is given as (block id, offset) points: offsets count the characters of the block's own
// text nodes in document order, not its nested lists (their items are blocks of their own).

/** A point in the document's text: a character offset in an addressable block's own text. */
export type TextPoint = { blockId: string; offset: number };

/** The range a new thread covers, and the text it covered in the writer's copy. */
export type CommentRange = { anchor: TextPoint; focus: TextPoint };

/** A block's own text nodes, in document order (nested lists are left to their items). */
function $ownTextNodes(block: ElementNode): TextNode[] {
  const found: TextNode[] = [];
  // Iterative: the depth is the content rule's, but nothing here should depend on that.
  const stack: LexicalNode[] = [...block.getChildren()].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as LexicalNode;
    if ($isTextNode(node)) found.push(node);
    else if ($isElementNode(node) && !$isListNode(node)) stack.push(...[...node.getChildren()].reverse());
  }
  return found;
}

/** The addressable block holding `node`, or null (the root, or a node outside any block). */
function $blockOf(node: LexicalNode): ElementNode | null {
  for (let current: LexicalNode | null = node; current !== null; current = current.getParent()) {
    if ($isAddressable(current) && $isElementNode(current)) return current;
  }
  return null;
}

/** Where a text point of the editor is, as a block point; null outside any block with an id. */
function $textPointOf(node: LexicalNode, offset: number): TextPoint | null {
  if (!$isTextNode(node)) return null;
  const block = $blockOf(node);
  const blockId = block && $getBlockId(block);
  if (!block || !blockId) return null;
  let before = 0;
  for (const text of $ownTextNodes(block)) {
    if (text.is(node)) return { blockId, offset: before + offset };
    before += text.getTextContentSize();
  }
  return null;
}

/**
 * The range a writer's selection covers, with its text; null when there is nothing to comment
 * on (a collapsed selection, or an end outside text, such as an empty paragraph).
 */
export function $commentRangeOf(selection: RangeSelection): (CommentRange & { quote: string }) | null {
  if (selection.isCollapsed()) return null;
  const [start, end] = selection.isBackward()
    ? [selection.focus, selection.anchor]
    : [selection.anchor, selection.focus];
  const anchor = $textPointOf(start.getNode(), start.offset);
  const focus = $textPointOf(end.getNode(), end.offset);
  const quote = selection.getTextContent();
  if (anchor === null || focus === null || quote.trim() === "") return null;
  return { anchor, focus, quote };
}

/** The text node and offset at a block point, or null when the block is gone or shorter. */
function $resolvePoint(point: TextPoint, isEnd: boolean): { node: TextNode; offset: number } | null {
  const block = $findBlockById(point.blockId);
  if (!$isElementNode(block)) return null;
  let before = 0;
  for (const text of $ownTextNodes(block)) {
    const size = text.getTextContentSize();
    // An end at a node boundary stays in the node before it (the mark ends there), a start moves on.
    const inside = isEnd ? point.offset <= before + size : point.offset < before + size;
    if (inside && point.offset >= before) return { node: text, offset: point.offset - before };
    before += size;
  }
  return null;
}

/**
 * The range of `quote`'s first occurrence in block `blockId`'s own text, or null when the block is
 * gone or does not hold it (how the agent names text: a block and an exact quote).
 */
export function $findQuoteRange(blockId: string, quote: string): CommentRange | null {
  const block = $findBlockById(blockId);
  if (!$isElementNode(block) || quote === "") return null;
  const text = $ownTextNodes(block)
    .map((node) => node.getTextContent())
    .join("");
  const at = text.indexOf(quote);
  if (at < 0) return null;
  return { anchor: { blockId, offset: at }, focus: { blockId, offset: at + quote.length } };
}

/** Why a range could not be marked: its block is gone, or its text is no longer the quote. */
export type MarkRefusal = "text-changed";

/**
 * Wraps the range's text in marks of thread `threadId` (one mark per text run it crosses), when
 * the range still holds `quote`; else changes nothing and says why. Marks of other threads on the
 * same text stay: a mark holds several thread ids.
 */
export function $markCommentRange(range: CommentRange, quote: string, threadId: string): MarkRefusal | null {
  const start = $resolvePoint(range.anchor, false);
  const end = $resolvePoint(range.focus, true);
  if (start === null || end === null) return "text-changed";
  const selection: RangeSelection = $createRangeSelection();
  selection.anchor.set(start.node.getKey(), start.offset, "text");
  selection.focus.set(end.node.getKey(), end.offset, "text");
  if (selection.isCollapsed() || selection.isBackward() || selection.getTextContent() !== quote) {
    return "text-changed";
  }
  $wrapSelectionInMarkNode(selection, false, threadId);
  return null;
}

/** Every mark in the document, in document order (iterative walk). */
function $allMarks(): MarkNode[] {
  const marks: MarkNode[] = [];
  const stack: LexicalNode[] = [...$getRoot().getChildren()].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as LexicalNode;
    if ($isMarkNode(node)) marks.push(node);
    if ($isElementNode(node)) stack.push(...[...node.getChildren()].reverse());
  }
  return marks;
}

/** The ids of the threads anchored in the document, in the order their text comes. */
export function $anchoredThreadIds(): string[] {
  const ids = new Set<string>();
  for (const mark of $allMarks()) for (const id of mark.getIDs()) ids.add(id);
  return [...ids];
}

/** Takes thread `threadId`'s marks off the text (the text stays); a mark left with no thread goes. */
export function $unmarkThread(threadId: string): void {
  for (const mark of $allMarks()) {
    if (!mark.hasID(threadId)) continue;
    mark.deleteID(threadId);
    if (mark.getIDs().length === 0) $unwrapMarkNode(mark);
  }
}
