import type { LexicalEditor, LexicalNode } from "lexical";
import { lazyBlockCache } from "./block-cache.ts";
import { $blockMarkdown } from "./markdown-write.ts";

const markdownCache = lazyBlockCache<string>();

/**
 * Renders top-level blocks of `editor`'s committed document as Markdown, reusing each block's
 * Markdown until an update touches it (the alternate list markers, needed only for a list right
 * after another, are not cached). Call it inside `editor.read` (the committed state): inside an
 * update a block can change without Lexical having reported it yet.
 */
export function committedBlockMarkdown(
  editor: LexicalEditor,
): (block: LexicalNode, alternate?: boolean) => string {
  const cache = markdownCache(editor);
  const state = editor.getEditorState();
  return (block, alternate = false) => {
    if (alternate) return $blockMarkdown(block, true);
    let markdown = cache.get(state, block);
    if (markdown === undefined) {
      markdown = $blockMarkdown(block);
      cache.set(state, block, markdown);
    }
    return markdown;
  };
}
