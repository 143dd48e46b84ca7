import { createHeadlessEditor } from "@lexical/headless";
import {
  $convertFromMarkdownString,
  $convertToMarkdownString,
  TRANSFORMERS,
  type Transformer,
} from "@lexical/markdown";
import { $getRoot, $parseSerializedNode, type LexicalEditor, type SerializedLexicalNode } from "lexical";
import { editorNodes } from "./editor-nodes.ts";

/** The Markdown transformers used for every import and export of the document. */
export const markdownTransformers: Transformer[] = [...TRANSFORMERS];

/** The whole document of `editor` as Markdown. */
export function exportMarkdown(editor: LexicalEditor): string {
  return editor.read(() => $convertToMarkdownString(markdownTransformers));
}

/** Replaces the whole document of `editor` with `markdown`, committing synchronously. */
export function importMarkdown(editor: LexicalEditor, markdown: string, options?: { tag?: string }): void {
  editor.update(() => $convertFromMarkdownString(markdown, markdownTransformers), {
    discrete: true,
    tag: options?.tag,
  });
}

/**
 * A throwaway editor that knows the document's nodes. Markdown import/export in Lexical works on
 * an element's children inside an update, so converting a single block (or parsing Markdown
 * without touching the live document) happens here.
 */
function createScratchEditor(): LexicalEditor {
  return createHeadlessEditor({
    namespace: "coauthor-scratch",
    nodes: [...editorNodes],
    onError: (error) => {
      throw error;
    },
  });
}

/** Parses `markdown` into serialized top-level blocks without touching any live document. */
export function markdownToSerializedBlocks(markdown: string): SerializedLexicalNode[] {
  const scratch = createScratchEditor();
  scratch.update(() => $convertFromMarkdownString(markdown, markdownTransformers), { discrete: true });
  return scratch.getEditorState().toJSON().root.children;
}

/** Renders each serialized top-level block as Markdown on its own. */
export function serializedBlocksToMarkdown(blocks: ReadonlyArray<SerializedLexicalNode>): string[] {
  if (blocks.length === 0) return [];
  const scratch = createScratchEditor();
  const out: string[] = [];
  scratch.update(
    () => {
      const root = $getRoot();
      for (const block of blocks) {
        root.clear();
        root.append($parseSerializedNode(block));
        out.push($convertToMarkdownString(markdownTransformers));
      }
    },
    { discrete: true },
  );
  return out;
}
