import type { ReplaceBlockInput, ReplaceBlockOutput } from "@coauthor/types/tools";
import { $isListItemNode, $isListNode } from "@lexical/list";
import { $isParagraphNode, type LexicalEditor, type LexicalNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $assignFreshBlockId, $claimBlockId } from "../block-index.ts";
import { $contentRuleBreak, $elementDepth } from "../content-rule-check.ts";
import { $readMarkdownBlocks } from "../markdown.ts";
import { $resolveBlock, contentFailure, isFailure } from "./tool-helpers.ts";

/** Puts `nodes` where `target` is; the first takes over the target's id, the rest get fresh ids. */
function $replaceWith(target: LexicalNode, nodes: LexicalNode[]): string[] {
  const id = $getBlockId(target) ?? "";
  let last = target;
  const ids = nodes.map((node, i) => {
    last.insertAfter(node);
    last = node;
    if (i === 0) {
      $claimBlockId(node, id);
      return id;
    }
    return $assignFreshBlockId(node);
  });
  target.remove();
  return ids;
}

/** Replaces one block (or list item) with blocks written as Markdown, keeping its id on the first. */
export function replaceBlock(editor: LexicalEditor, input: ReplaceBlockInput): ReplaceBlockOutput {
  return applyAgentEdit(editor, (): ReplaceBlockOutput => {
    const target = $resolveBlock(input.blockId, "blockId");
    if (isFailure(target)) return target;
    const read = $readMarkdownBlocks(input.markdown);
    if (!read.ok) return contentFailure("markdown", read.problem);
    const nodes = read.blocks;
    if (nodes.length === 0) return toolFailure("invalid-markdown", "markdown: contains no blocks");
    if (!$isListItemNode(target)) return { ok: true, blockIds: $replaceWith(target, nodes) };
    // A list item is replaced by list items (from a Markdown list) or by one paragraph's text, as
    // deep as the item is: the rule is checked there, not at the top.
    const depth = $elementDepth(target);
    if (nodes.every($isListNode)) {
      const items = nodes.flatMap((list) => list.getChildren());
      const broken = $contentRuleBreak(items, depth - 1);
      if (broken !== null) return contentFailure("markdown", `${broken} at ${input.blockId}`);
      return { ok: true, blockIds: $replaceWith(target, items) };
    }
    const [only] = nodes;
    if (nodes.length === 1 && $isParagraphNode(only)) {
      const broken = $contentRuleBreak(only.getChildren(), depth);
      if (broken !== null) return contentFailure("markdown", `${broken} at ${input.blockId}`);
      const nested = target.getChildren().filter($isListNode);
      target.clear();
      target.append(...only.getChildren(), ...nested);
      return { ok: true, blockIds: [input.blockId] };
    }
    return toolFailure(
      "invalid-markdown",
      `markdown: "${input.blockId}" is a list item, so the Markdown must be one line of text or a list ("- item"); to replace the whole list use the list's id`,
    );
  });
}
