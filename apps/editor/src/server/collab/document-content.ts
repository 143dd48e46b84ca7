import { bindDocumentEditor } from "@coauthor/tools";
import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import { liveDocument } from "./sync-server";
import { loadDocumentState } from "./update-log";

/**
 * Runs `read` on a headless editor holding the document's current content: the live copy when
 * this instance has the document open (it has every update it received), else the stored state.
 * Null when the document does not exist. The server's reads (chat, export) all come through here:
 * JSON and Markdown are derived from Yjs, never stored beside it.
 */
export async function readDocument<T>(
  documentId: string,
  read: (editor: LexicalEditor) => T,
): Promise<T | null> {
  const live = liveDocument(documentId);
  const state = live && !live.isLoading ? Y.encodeStateAsUpdate(live) : await loadDocumentState(documentId);
  if (!state) return null;
  const bound = bindDocumentEditor(state);
  try {
    return read(bound.editor);
  } finally {
    bound.dispose();
    bound.doc.destroy();
  }
}
