import type { InsertBlocksInput, InsertBlocksOutput } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode, type ListItemNode } from "@lexical/list";
import type { LexicalEditor, LexicalNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $assignFreshBlockId, $findBlockById } from "../block-index.ts";
import { $parseMarkdownBlocks } from "../markdown.ts";
import { $resolveTopLevelPosition, isFailure } from "./tool-helpers.ts";

/** Inserts the items of parsed Markdown lists next to an existing list item. */
function $insertItems(anchor: ListItemNode, lists: LexicalNode[], before: boolean): string[] {
  const items = lists.flatMap((list) => ($isListNode(list) ? list.getChildren() : []));
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
    const nodes = $parseMarkdownBlocks(input.markdown);
    if (nodes.length === 0) return toolFailure("invalid-markdown", "markdown: contains no blocks");
    if (position.at === "before" || position.at === "after") {
      const anchor = $findBlockById(position.blockId);
      if ($isListItemNode(anchor) && nodes.every($isListNode)) {
        return { ok: true, blockIds: $insertItems(anchor, nodes, position.at === "before") };
      }
    }
    const insert = $resolveTopLevelPosition(position);
    if (isFailure(insert)) return insert;
    const blockIds = nodes.map($assignFreshBlockId);
    insert(nodes);
    return { ok: true, blockIds };
  });
}
