import { createHeadlessEditor } from "@lexical/headless";
import { $isListNode, type ListNode } from "@lexical/list";
import { CHECK_LIST, TRANSFORMERS, type Transformer } from "@lexical/markdown";
import {
  $createParagraphNode,
  $getRoot,
  $isElementNode,
  $isParagraphNode,
  $parseSerializedNode,
  type LexicalEditor,
  type LexicalNode,
  type SerializedLexicalNode,
} from "lexical";
import type { ContentProblem } from "./content-problem.ts";
import { editorNodes } from "./editor-nodes.ts";
import { committedBlockMarkdown } from "./markdown-cache.ts";
import { $markdownToNodes, $readMarkdown } from "./markdown-parse.ts";
import { $blockMarkdown } from "./markdown-write.ts";

// The one Markdown module: the tools, the paste handler, the server's snapshots and exports and
// the chat context all read and write Markdown through these functions, so the model, the writer
// and the server see the same Markdown for the same document. Reading is markdown-parse.ts
// (micromark, CommonMark + GFM), writing markdown-write.ts (mdast-util-to-markdown).

/**
 * Typing shortcuts in the editor ("# " makes a heading, "- " a list). Only for typing: Markdown
 * text is always read by `importMarkdown` / `$parseMarkdownBlocks`.
 */
export const markdownShortcutTransformers: Transformer[] = [CHECK_LIST, ...TRANSFORMERS];

function isUnorderedList(list: ListNode): boolean {
  return list.getListType() !== "number";
}

/**
 * The whole document (or `blocks` of it) as Markdown: blocks separated by a blank line, empty paragraphs dropped. A
 * list right after a list of the same kind is written with the other markers ("*" / "1)"), or the
 * two would read back as one list.
 */
export function $documentMarkdown(
  blockMarkdown: (block: LexicalNode, alternate: boolean) => string = $blockMarkdown,
  blocks: Iterable<LexicalNode> = $getRoot().getChildren(),
): string {
  const parts: string[] = [];
  let previous: { list: ListNode; alternate: boolean } | null = null;
  for (const block of blocks) {
    const alternate: boolean =
      $isListNode(block) &&
      previous !== null &&
      isUnorderedList(previous.list) === isUnorderedList(block) &&
      !previous.alternate;
    const markdown = blockMarkdown(block, alternate);
    if (markdown === "") continue;
    parts.push(markdown);
    previous = $isListNode(block) ? { list: block, alternate } : null;
  }
  return parts.join("\n\n");
}

/** The whole document of `editor` as Markdown, reusing the Markdown of blocks no update touched. */
export function exportMarkdown(editor: LexicalEditor): string {
  return editor.read(() => $documentMarkdown(committedBlockMarkdown(editor)));
}

const isEmptyParagraph = (node: LexicalNode) => $isParagraphNode(node) && node.getChildrenSize() === 0;

/**
 * Parses `markdown` into new, unattached top-level blocks inside the active update; throws
 * InvalidContentError when it breaks the content rule (nothing is created from it then).
 */
export function $parseMarkdownBlocks(markdown: string): LexicalNode[] {
  return $markdownToNodes(markdown).filter((node) => !isEmptyParagraph(node));
}

/** Like `$parseMarkdownBlocks`, with a refusal as a value: for callers that answer it (a tool, a paste). */
export function $readMarkdownBlocks(
  markdown: string,
): { ok: true; blocks: LexicalNode[] } | { ok: false; problem: ContentProblem } {
  const read = $readMarkdown(markdown);
  if (!read.ok) return read;
  return { ok: true, blocks: read.nodes.filter((node) => !isEmptyParagraph(node)) };
}

/**
 * Whether plain text uses Markdown syntax a writer would expect to be read (a heading, a list, a
 * quote, a fence, a table, emphasis, a link, inline code), so a paste of it is read as Markdown;
 * prose without any is pasted as it is.
 */
export function looksLikeMarkdown(text: string): boolean {
  return (
    /^ {0,3}(?:#{1,6} |[-*+] |\d{1,9}[.)] |> |```|~~~|\|.*\|)/m.test(text) ||
    /\*\*[^*\n]+\*\*|__[^_\n]+__|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`/.test(text)
  );
}

/**
 * Replaces the whole document of `editor` with `markdown`, committing synchronously; throws
 * InvalidContentError, leaving the document as it was, when the Markdown breaks the content rule.
 */
export function importMarkdown(editor: LexicalEditor, markdown: string, options?: { tag?: string }): void {
  editor.update(
    () => {
      const blocks = $parseMarkdownBlocks(markdown);
      $getRoot()
        .clear()
        .append(...(blocks.length > 0 ? blocks : [$createParagraphNode()]));
    },
    { discrete: true, tag: options?.tag },
  );
}

function $serializeNode(node: LexicalNode): SerializedLexicalNode {
  const json = node.exportJSON();
  if (!$isElementNode(node)) return json;
  return { ...json, children: node.getChildren().map($serializeNode) } as SerializedLexicalNode;
}

let scratch: LexicalEditor | null = null;

/** A throwaway editor that knows the document's nodes, reused between calls, for work off the live document. */
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
  let blocks: SerializedLexicalNode[] = [];
  getScratchEditor().update(
    () => {
      const root = $getRoot().append(...$parseMarkdownBlocks(markdown));
      blocks = root.getChildren().map($serializeNode);
      // Leave the scratch editor small for the next caller.
      root.clear();
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
