import type { DocumentBlock, ReadDocumentInput, ReadDocumentOutput } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode, type ListNode } from "@lexical/list";
import { $getNodeByKey, $getRoot, type LexicalEditor, type LexicalNode } from "lexical";
import { toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $findBlockById } from "../block-index.ts";
import { $topLevelIndex, $topLevelOrder } from "../block-order.ts";
import { committedBlockMarkdown } from "../markdown-cache.ts";
import { $getBlockType } from "./block-type.ts";
import { $unitText } from "./text-units.ts";
import { $isTopLevel } from "./tool-helpers.ts";

type Item = NonNullable<DocumentBlock["items"]>[number];

function $listItems(list: ListNode, depth: number, out: Item[]): Item[] {
  for (let item = list.getFirstChild(); item !== null; item = item.getNextSibling()) {
    if (!$isListItemNode(item)) continue;
    const nested = item.getChildren().filter($isListNode);
    if (nested.length !== item.getChildrenSize()) {
      out.push({ id: $getBlockId(item) ?? "", depth, text: $unitText(item).text });
    }
    for (const child of nested) $listItems(child, depth + 1, out);
  }
  return out;
}

function $describe(node: LexicalNode, markdown: (block: LexicalNode) => string): DocumentBlock {
  const block: DocumentBlock = {
    id: $getBlockId(node) ?? "",
    type: $getBlockType(node),
    markdown: markdown(node),
  };
  if ($isListNode(node)) block.items = $listItems(node, 0, []);
  return block;
}

/**
 * What a page that is not the last one says, in words a model cannot miss: a model that acts on
 * "the document" after one page acts on part of it (and reports the whole as done).
 */
function pageNotice(from: number, end: number, total: number): string {
  const left = total - end;
  return `This is only part of the document: blocks ${from + 1} to ${end} of ${total}. ${left} more ${left === 1 ? "block is" : "blocks are"} not shown. Call readDocument with fromBlock: ${end} to read on before you act on or report about the whole document.`;
}

/** Reads a page of top-level blocks (ids, types, Markdown), bounded by block count and characters. */
export function readDocument(editor: LexicalEditor, input: ReadDocumentInput): ReadDocumentOutput {
  return editor.read((): ReadDocumentOutput => {
    const root = $getRoot();
    const totalBlocks = root.getChildrenSize();
    let first: LexicalNode | null;
    let fromBlock = input.fromBlock;
    if (input.fromBlockId !== undefined) {
      first = $findBlockById(input.fromBlockId);
      if (first === null)
        return toolFailure("unknown-block", `fromBlockId: no block has id "${input.fromBlockId}"`);
      if (!$isTopLevel(first)) {
        return toolFailure(
          "wrong-block-type",
          `fromBlockId: "${input.fromBlockId}" is a list item; pass the id of its list`,
        );
      }
      fromBlock = $topLevelIndex(first);
    } else {
      const key = $topLevelOrder().keys[fromBlock];
      first = key === undefined ? null : $getNodeByKey(key);
    }
    const markdown = committedBlockMarkdown(editor);
    const blocks: DocumentBlock[] = [];
    let chars = 0;
    for (let node = first; node !== null && blocks.length < input.maxBlocks; node = node.getNextSibling()) {
      const block = $describe(node, markdown);
      // The first block always fits, so paging makes progress even past the budget.
      if (blocks.length > 0 && chars + block.markdown.length > input.maxChars) break;
      chars += block.markdown.length;
      blocks.push(block);
    }
    const end = fromBlock + blocks.length;
    if (end >= totalBlocks) return { ok: true, blocks, totalBlocks, nextFromBlock: null };
    return {
      ok: true,
      blocks,
      totalBlocks,
      nextFromBlock: end,
      notice: pageNotice(fromBlock, end, totalBlocks),
    };
  });
}
