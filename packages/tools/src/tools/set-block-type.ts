import type { BlockType, SetBlockTypeInput, SetBlockTypeOutput } from "@coauthor/types/tools";
import { $createCodeNode, $isCodeNode } from "@lexical/code";
import {
  $createListItemNode,
  $createListNode,
  $isListItemNode,
  $isListNode,
  type ListNode,
  type ListType,
} from "@lexical/list";
import { $createHeadingNode, $createQuoteNode, type HeadingTagType } from "@lexical/rich-text";
import { $isTableNode } from "@lexical/table";
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $isElementNode,
  type ElementNode,
  type LexicalEditor,
  type LexicalNode,
} from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $claimBlockId } from "../block-index.ts";
import { $getBlockType } from "./block-type.ts";
import { $isTopLevel, $isWrapperItem, $resolveBlock, isFailure } from "./tool-helpers.ts";

const LIST_TYPES: Partial<Record<BlockType, ListType>> = {
  "bullet-list": "bullet",
  "number-list": "number",
  "check-list": "check",
};

/** The inline content of `source` for a block of another type; code text becomes plain lines. */
function $contentOf(source: ElementNode): LexicalNode[] {
  if (!$isCodeNode(source)) return source.getChildren().filter((child) => !$isListNode(child));
  return source
    .getTextContent()
    .split("\n")
    .flatMap((line, i) => [
      ...(i > 0 ? [$createLineBreakNode()] : []),
      ...(line ? [$createTextNode(line)] : []),
    ]);
}

/** A new, empty top-level block of `type` (lists come back holding one item). */
function $createBlock(type: BlockType, content: LexicalNode[], language: string | undefined): ElementNode {
  const listType = LIST_TYPES[type];
  if (listType !== undefined)
    return $createListNode(listType).append($createListItemNode().append(...content));
  if (type === "code") {
    const text = content.map((node) => node.getTextContent()).join("");
    return $createCodeNode(language).append(...(text ? [$createTextNode(text)] : []));
  }
  const block =
    type === "paragraph"
      ? $createParagraphNode()
      : type === "quote"
        ? $createQuoteNode()
        : $createHeadingNode(`h${type.slice(-1)}` as HeadingTagType);
  return block.append(...content);
}

/** Turns the items of a top-level list into blocks of `type`; each block keeps its item's id. */
function $unwrapList(list: ListNode, type: BlockType, language: string | undefined): string[] {
  const ids: string[] = [];
  let last: LexicalNode = list;
  const visit = (current: ListNode) => {
    for (const item of current.getChildren()) {
      if (!$isListItemNode(item)) continue;
      const nested = item.getChildren().filter($isListNode);
      if (!$isWrapperItem(item)) {
        const block = $createBlock(type, $contentOf(item), language);
        const id = $getBlockId(item) ?? "";
        last.insertAfter(block);
        last = block;
        $claimBlockId(block, id);
        ids.push(id);
      }
      for (const child of nested) visit(child);
    }
  };
  visit(list);
  list.remove();
  return ids;
}

/** Takes a top-level list's item out into the document, splitting the list around it. */
function $splitOut(item: LexicalNode, list: ListNode, replacement: ElementNode): void {
  const rest = item.getNextSiblings();
  if (rest.length > 0) {
    const tail = $createListNode(list.getListType());
    tail.append(...rest);
    list.insertAfter(tail);
  }
  list.insertAfter(replacement);
  item.remove();
  if (list.getChildrenSize() === 0) list.remove();
}

/** Changes a block's type (paragraph, heading 1–6, quote, code, bullet/number/check list); ids carry over. */
export function setBlockType(editor: LexicalEditor, input: SetBlockTypeInput): SetBlockTypeOutput {
  const { type, language } = input;
  return applyAgentEdit(editor, (): SetBlockTypeOutput => {
    const node = $resolveBlock(input.blockId, "blockId");
    if (isFailure(node)) return node;
    const ok = (blockIds: string[]): SetBlockTypeOutput => ({ ok: true, blockIds });
    if ($isTableNode(node))
      return toolFailure(
        "wrong-block-type",
        "blockId: a table has no block type to change; use replaceBlock",
      );
    const listType = LIST_TYPES[type];
    if ($isListNode(node) && $isTopLevel(node)) {
      if (listType === undefined) return ok($unwrapList(node, type, language));
      node.setListType(listType);
      return ok([input.blockId]);
    }
    if ($isListItemNode(node)) {
      const list = node.getParent();
      if (!$isListNode(list) || !$isTopLevel(list)) {
        return toolFailure(
          "wrong-block-type",
          "blockId: only items of a top-level list can change type; change the whole list instead",
        );
      }
      if (list.getListType() === listType) return ok([input.blockId]);
      const block = $createBlock(type, $contentOf(node), language);
      $splitOut(node, list, block);
      const target = listType === undefined ? block : (block.getFirstChild() ?? block);
      $claimBlockId(target, input.blockId);
      return ok([input.blockId]);
    }
    if (!$isTopLevel(node) || !$isElementNode(node))
      return toolFailure("wrong-block-type", "blockId: not a block");
    if ($getBlockType(node) === type && !(type === "code" && language !== undefined))
      return ok([input.blockId]);
    if ($isCodeNode(node) && type === "code") {
      node.setLanguage(language);
      return ok([input.blockId]);
    }
    const block = $createBlock(type, $contentOf(node), language);
    node.replace(block);
    $claimBlockId(block, input.blockId);
    return ok([input.blockId]);
  });
}
