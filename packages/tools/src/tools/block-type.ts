import { $isListNode } from "@lexical/list";
import { $isHeadingNode } from "@lexical/rich-text";
import type { LexicalNode } from "lexical";

/** The block type the model sees: "paragraph", "heading-2", "quote", "code", "bullet-list", … */
export function $getBlockType(node: LexicalNode): string {
  if ($isHeadingNode(node)) return `heading-${node.getTag().slice(1)}`;
  if ($isListNode(node)) return `${node.getListType()}-list`;
  return node.getType();
}
