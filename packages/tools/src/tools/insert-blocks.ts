import type { InsertBlocksInput, InsertBlocksOutput } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode, type ListItemNode } from "@lexical/list";
import type { LexicalEditor, LexicalNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $assignFreshBlockId, $findBlockById } from "../block-index.ts";
import { $contentRuleBreak, $elementDepth } from "../content-rule-check.ts";
import { $readMarkdownBlocks } from "../markdown.ts";
import { $resolveTopLevelPosition, contentFailure, isFailure } from "./tool-helpers.ts";

/** Inserts list items next to an existing list item. */
function $insertItems(anchor: ListItemNode, items: LexicalNode[], before: boolean): string[] {
  const ids: string[] = [];
  let last: LexicalNode = anchor;
  for (const item of items) {
    if (before) anchor.insertBefore(item);
    else {
      last.insertAfter(item);
      last = item;
    }
    ids.push($assignFreshBlockId(item));
  }
  return ids;
}

/** Parses Markdown into blocks and inserts them at the position, as one agent edit. */
export function insertBlocks(editor: LexicalEditor, input: InsertBlocksInput): InsertBlocksOutput {
  const { position } = input;
  return applyAgentEdit(editor, (): InsertBlocksOutput => {
    const read = $readMarkdownBlocks(input.markdown);
    if (!read.ok) return contentFailure("markdown", read.problem);
    const nodes = read.blocks;
    if (nodes.length === 0) return toolFailure("invalid-markdown", "markdown: contains no blocks");
    if (position.at === "before" || position.at === "after") {
      const anchor = $findBlockById(position.blockId);
      if ($isListItemNode(anchor) && nodes.every($isListNode)) {
        const items = nodes.flatMap((list) => ($isListNode(list) ? list.getChildren() : []));
        // The items join the anchor's list, as deep as the anchor is: checked there, not at the top.
        const broken = $contentRuleBreak(items, $elementDepth(anchor) - 1);
        if (broken !== null) return contentFailure("markdown", `${broken} at ${position.blockId}`);
        return { ok: true, blockIds: $insertItems(anchor, items, position.at === "before") };
      }
    }
    const insert = $resolveTopLevelPosition(position);
    if (isFailure(insert)) return insert;
    for (const node of nodes) $assignFreshBlockId(node);
    // A blank document's placeholder may hold the first paragraph: its id is the one to give.
    const blockIds = insert(nodes).map((node) => $getBlockId(node) ?? $assignFreshBlockId(node));
    return { ok: true, blockIds };
  });
}
