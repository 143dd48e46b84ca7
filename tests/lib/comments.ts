import { $getBlockId, readThreads } from "@coauthor/tools";
import type { CommentThread } from "@coauthor/types";
import { $getRoot, $isElementNode } from "lexical";
import type { CoauthorClient } from "./coauthor-client.ts";
import { SyncClient } from "./sync-client.ts";

/** The input of `comments.add` for a thread on the first occurrence of `quote` in a top-level block of `copy`. */
export function commentInput(copy: SyncClient, documentId: string, quote: string, body: string) {
  const point = copy.bound.editor.read(() => {
    for (const block of $getRoot().getChildren()) {
      const at = block.getTextContent().indexOf(quote);
      const blockId = $getBlockId(block);
      // Top-level paragraphs and headings: their text is their text nodes' text.
      if (at >= 0 && blockId !== null && $isElementNode(block)) return { blockId, at };
    }
    throw new Error(`no block holds "${quote}"`);
  });
  return {
    documentId,
    anchor: { blockId: point.blockId, offset: point.at },
    focus: { blockId: point.blockId, offset: point.at + quote.length },
    quote,
    body,
  };
}

/** Starts a thread on `quote` as `client` (through a copy of the document it opens and closes). */
export async function addComment(
  client: CoauthorClient,
  documentId: string,
  quote: string,
  body: string,
): Promise<{ status: number; code?: string; data?: { threadId: string } }> {
  const copy = new SyncClient({ baseURL: client.baseURL, cookie: client.cookie, documentId });
  try {
    await copy.synced();
    return await client.trpcCall<{ threadId: string }>(
      "comments.add",
      commentInput(copy, documentId, quote, body),
    );
  } finally {
    copy.close();
  }
}

/** The threads a copy of the document holds now. */
export function threadsOf(copy: SyncClient): CommentThread[] {
  return readThreads(copy.doc);
}
