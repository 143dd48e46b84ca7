import type { ReadDocumentInput, ReadDocumentOutput } from "@coauthor/types/tools";
import { $getRoot, type LexicalEditor } from "lexical";
import { $getBlockId } from "../block-id.ts";
import { serializedBlocksToMarkdown } from "../markdown.ts";
import { $getBlockType } from "./block-type.ts";

/** Reads a page of top-level blocks with their ids, types and Markdown. */
export function readDocument(editor: LexicalEditor, input: ReadDocumentInput): ReadDocumentOutput {
  const { fromBlock, maxBlocks } = input;
  const page = editor.read(() => {
    const children = $getRoot().getChildren();
    const end = Math.min(children.length, fromBlock + maxBlocks);
    return {
      totalBlocks: children.length,
      end,
      meta: children.slice(fromBlock, end).map((node) => ({
        id: $getBlockId(node) ?? "",
        type: $getBlockType(node),
      })),
      // Serialized children line up index-for-index with the live ones.
      json: editor.getEditorState().toJSON().root.children.slice(fromBlock, end),
    };
  });
  const markdown = serializedBlocksToMarkdown(page.json);
  return {
    ok: true,
    blocks: page.meta.map((block, index) => ({ ...block, markdown: markdown[index] ?? "" })),
    totalBlocks: page.totalBlocks,
    nextFromBlock: page.end < page.totalBlocks ? page.end : null,
  };
}
