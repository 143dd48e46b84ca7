import { $createCodeNode } from "@lexical/code";
import {
  INSERT_ORDERED_LIST_COMMAND,
  INSERT_UNORDERED_LIST_COMMAND,
  REMOVE_LIST_COMMAND,
} from "@lexical/list";
import { $createHeadingNode, $createQuoteNode } from "@lexical/rich-text";
import { $setBlocksType } from "@lexical/selection";
import { $createParagraphNode, $getSelection, type ElementNode, type LexicalEditor } from "lexical";
import type { BlockType } from "./toolbar-state";

const blockFactories: Partial<Record<BlockType, () => ElementNode>> = {
  paragraph: $createParagraphNode,
  h1: () => $createHeadingNode("h1"),
  h2: () => $createHeadingNode("h2"),
  h3: () => $createHeadingNode("h3"),
  h4: () => $createHeadingNode("h4"),
  h5: () => $createHeadingNode("h5"),
  h6: () => $createHeadingNode("h6"),
  quote: $createQuoteNode,
  code: $createCodeNode,
};

/** Turns the selected blocks into `target` (lists go through the list commands; choosing the current list type removes it). */
export function setBlockType(editor: LexicalEditor, current: BlockType, target: BlockType): void {
  if (target === "bullet" || target === "number") {
    if (current === target) editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined);
    else
      editor.dispatchCommand(
        target === "bullet" ? INSERT_UNORDERED_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND,
        undefined,
      );
    return;
  }
  const create = blockFactories[target];
  if (!create) return;
  editor.update(() => {
    $setBlocksType($getSelection(), create);
  });
}

const SAFE_URL = /^(https?:|mailto:|\/|#)/i;

/** True for link targets the editor accepts (no `javascript:` and the like). */
export function isSafeUrl(url: string): boolean {
  return SAFE_URL.test(url.trim());
}
