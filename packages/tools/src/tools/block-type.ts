import { $isCodeNode } from "@lexical/code";
import { $isHorizontalRuleNode } from "@lexical/extension";
import { $isListNode } from "@lexical/list";
import { $isHeadingNode } from "@lexical/rich-text";
import { $isTableNode } from "@lexical/table";
import type { LexicalNode } from "lexical";

/** The block type the model sees: "paragraph", "heading-2", "quote", "code", "bullet-list", "table", "list-item", … */
export function $getBlockType(node: LexicalNode): string {
  if ($isHeadingNode(node)) return `heading-${node.getTag().slice(1)}`;
  if ($isListNode(node)) return `${node.getListType()}-list`;
  if ($isCodeNode(node)) return "code";
  if ($isTableNode(node)) return "table";
  if ($isHorizontalRuleNode(node)) return "rule";
  if (node.getType() === "listitem") return "list-item";
  return node.getType();
}
