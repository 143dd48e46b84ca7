import { createHeadlessEditor } from "@lexical/headless";
import {
  $convertFromMarkdownString,
  $generateNodesFromMarkdownString,
  CHECK_LIST,
  TRANSFORMERS,
  type Transformer,
} from "@lexical/markdown";
import {
  $getRoot,
  $isElementNode,
  $isParagraphNode,
  $parseSerializedNode,
  type LexicalEditor,
  type LexicalNode,
  type SerializedLexicalNode,
} from "lexical";
import { editorNodes } from "./editor-nodes.ts";
import { committedBlockMarkdown } from "./markdown-cache.ts";
import { $blockMarkdown, $documentMarkdown } from "./markdown-export.ts";
import { TABLE } from "./markdown-table.ts";

/** The Markdown transformers used for every import of the document (GFM tables included). */
export const markdownTransformers: Transformer[] = [TABLE, CHECK_LIST, ...TRANSFORMERS];

/**
 * The whole document of `editor` as Markdown. Export uses this package's one-pass writer rather
 * than @lexical/markdown's (several times faster on long documents), and reuses the Markdown of
 * blocks no update has touched since the last export; its output reads back through
 * `importMarkdown` to the same blocks, text and formats.
 */
export function exportMarkdown(editor: LexicalEditor): string {
  return editor.read(() => $documentMarkdown(committedBlockMarkdown(editor)));
}

/** Replaces the whole document of `editor` with `markdown`, committing synchronously. */
export function importMarkdown(editor: LexicalEditor, markdown: string, options?: { tag?: string }): void {
  editor.update(() => $convertFromMarkdownString(markdown, markdownTransformers), {
    discrete: true,
    tag: options?.tag,
  });
}

/** Parses `markdown` into new, unattached top-level blocks inside the active update; blank lines make no blocks. */
export function $parseMarkdownBlocks(markdown: string): LexicalNode[] {
  return $generateNodesFromMarkdownString(markdown, markdownTransformers).filter(
    (node) => !($isParagraphNode(node) && node.getTextContentSize() === 0),
  );
}

function $serializeNode(node: LexicalNode): SerializedLexicalNode {
  const json = node.exportJSON();
  if (!$isElementNode(node)) return json;
  return { ...json, children: node.getChildren().map($serializeNode) } as SerializedLexicalNode;
}

let scratch: LexicalEditor | null = null;

/**
 * A throwaway editor that knows the document's nodes, reused between calls. Markdown import in
 * Lexical works on an element inside an update, so parsing Markdown without touching the live
 * document happens here.
 */
function getScratchEditor(): LexicalEditor {
  scratch ??= createHeadlessEditor({
    namespace: "coauthor-scratch",
    nodes: [...editorNodes],
    onError: (error) => {
      throw error;
    },
  });
  return scratch;
}

/** Parses `markdown` into serialized top-level blocks without touching any live document. */
export function markdownToSerializedBlocks(markdown: string): SerializedLexicalNode[] {
  const editor = getScratchEditor();
  let blocks: SerializedLexicalNode[] = [];
  editor.update(
    () => {
      $convertFromMarkdownString(markdown, markdownTransformers);
      blocks = $getRoot().getChildren().map($serializeNode);
      // Leave the scratch editor small for the next caller.
      $getRoot().clear();
    },
    { discrete: true },
  );
  return blocks;
}

/** Renders each serialized top-level block as Markdown on its own. */
export function serializedBlocksToMarkdown(blocks: ReadonlyArray<SerializedLexicalNode>): string[] {
  if (blocks.length === 0) return [];
  const out: string[] = [];
  getScratchEditor().update(
    () => {
      const root = $getRoot();
      for (const block of blocks) {
        const node = $parseSerializedNode(block);
        root.append(node);
        out.push($blockMarkdown(node));
      }
      root.clear();
    },
    { discrete: true },
  );
  return out;
}
