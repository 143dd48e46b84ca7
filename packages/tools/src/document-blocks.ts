import type { BlockAuthor } from "@coauthor/types";
import { $getRoot, type LexicalEditor } from "lexical";
import { $getBlockAuthors } from "./block-authors.ts";
import { $getBlockId } from "./block-id.ts";
import { $blockMarkdown } from "./markdown-write.ts";

/** A top-level block as a comparison of two states of the document needs it. */
export interface DocumentBlock {
  /** Its block id (null only for a block the id plugin has not reached, in a state from before ids). */
  id: string | null;
  markdown: string;
  /** Who wrote it, oldest first (empty: people, unnamed). */
  authors: BlockAuthor[];
}

/** The document's top-level blocks in order, each with its id, Markdown and authors. */
export function documentBlocks(editor: LexicalEditor): DocumentBlock[] {
  return editor.read(() =>
    $getRoot()
      .getChildren()
      .map((block) => ({
        id: $getBlockId(block),
        markdown: $blockMarkdown(block),
        authors: $getBlockAuthors(block),
      })),
  );
}
