import type { ReplaceTextInput, ReplaceTextOutput } from "@coauthor/types/tools";
import { $getRoot, $isElementNode, type LexicalEditor, type LexicalNode, type TextNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $findBlockById } from "../block-index.ts";

type Edit = { node: TextNode; text: string; count: number; blockId: string };

/** Replaces `search` with `replace` in `text`, at most `limit` times (non-overlapping, left to right). */
function replaceIn(text: string, search: string, replace: string, limit: number): [string, number] {
  let out = "";
  let from = 0;
  let count = 0;
  while (count < limit) {
    const at = text.indexOf(search, from);
    if (at === -1) break;
    out += text.slice(from, at) + replace;
    from = at + search.length;
    count++;
  }
  return [out + text.slice(from), count];
}

/** How many non-overlapping times `search` occurs in `text`. */
function occurrences(text: string, search: string): number {
  return replaceIn(text, search, "", Number.POSITIVE_INFINITY)[1];
}

/**
 * Occurrences the edits leave out: a match that spans two text nodes (differently formatted
 * pieces) is found in the block's text but in no single node, and is not replaced.
 */
function $acrossFormatting(
  blocks: LexicalNode[],
  edits: Edit[],
  search: string,
): { count: number; blockIds: string[] } {
  let count = 0;
  const blockIds: string[] = [];
  for (const block of blocks) {
    if (!$isElementNode(block)) continue;
    const blockId = $getBlockId(block) ?? "";
    const replaced = edits
      .filter((edit) => edit.blockId === blockId)
      .reduce((sum, edit) => sum + edit.count, 0);
    const missed = occurrences(block.getTextContent(), search) - replaced;
    if (missed <= 0) continue;
    count += missed;
    blockIds.push(blockId);
  }
  return { count, blockIds };
}

/** Plans the text-node edits for `input` inside `blocks` without mutating anything. */
function $planEdits(blocks: LexicalNode[], input: ReplaceTextInput): Edit[] {
  const edits: Edit[] = [];
  let remaining = input.occurrence === "first" ? 1 : Number.POSITIVE_INFINITY;
  for (const block of blocks) {
    if (!$isElementNode(block)) continue;
    const blockId = $getBlockId(block) ?? "";
    for (const node of block.getAllTextNodes()) {
      if (remaining === 0) return edits;
      const [text, count] = replaceIn(node.getTextContent(), input.search, input.replace, remaining);
      if (count === 0) continue;
      edits.push({ node, text, count, blockId });
      remaining -= count;
    }
  }
  return edits;
}

/** Replaces plain text inside one block or the whole document, keeping each text node's formatting. */
export function replaceText(editor: LexicalEditor, input: ReplaceTextInput): ReplaceTextOutput {
  return applyAgentEdit(editor, (): ReplaceTextOutput => {
    let blocks: LexicalNode[];
    if (input.blockId === undefined) blocks = $getRoot().getChildren();
    else {
      const block = $findBlockById(input.blockId);
      if (block === null) return toolFailure("unknown-block", `blockId: no block has id "${input.blockId}"`);
      blocks = [block];
    }
    const edits = $planEdits(blocks, input);
    if (edits.length === 0) {
      const where = input.blockId === undefined ? "the document" : `block "${input.blockId}"`;
      const spansFormatting = blocks.some((block) => block.getTextContent().includes(input.search));
      return toolFailure(
        "not-found",
        spansFormatting
          ? `search: "${input.search}" only occurs across differently formatted text in ${where}; replace the whole block instead`
          : `search: "${input.search}" does not occur in ${where}`,
      );
    }
    // Counted before the edits change the text; only "all" promises every occurrence.
    const missed =
      input.occurrence === "all"
        ? $acrossFormatting(blocks, edits, input.search)
        : { count: 0, blockIds: [] };
    for (const edit of edits) edit.node.setTextContent(edit.text);
    return {
      ok: true,
      replacements: edits.reduce((sum, edit) => sum + edit.count, 0),
      blockIds: [...new Set(edits.map((edit) => edit.blockId))],
      ...(missed.count > 0 ? { acrossFormatting: missed } : {}),
    };
  });
}
