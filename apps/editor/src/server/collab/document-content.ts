import { log } from "@coauthor/agent-workflow";
import { bindDocumentEditor } from "@coauthor/tools";
import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import { liveDocument } from "./sync-server";
import { loadDocumentState } from "./update-log";

/**
 * A stored document the editor cannot read (content from before the door checks, or a bug). Routes
 * answer it with 409 and a message, never a 500; the cause goes to the server log.
 */
export class DocumentDamagedError extends Error {
  readonly documentId: string;
  constructor(documentId: string, cause: unknown) {
    super("this document's stored content could not be read; nothing was changed", { cause });
    this.name = "DocumentDamagedError";
    this.documentId = documentId;
  }
}

/**
 * Runs `read` on a headless editor holding the document's current content: the live copy when
 * this instance has the document open (it has every update it received), else the stored state.
 * Null when the document does not exist; a `DocumentDamagedError` when its content cannot be read. The server's reads (chat, export) all come through here:
 * JSON and Markdown are derived from Yjs, never stored beside it.
 */
export async function readDocument<T>(
  documentId: string,
  read: (editor: LexicalEditor) => T,
): Promise<T | null> {
  const live = liveDocument(documentId);
  const state = live && !live.isLoading ? Y.encodeStateAsUpdate(live) : await loadDocumentState(documentId);
  if (!state) return null;
  let bound: ReturnType<typeof bindDocumentEditor>;
  try {
    bound = bindDocumentEditor(state);
  } catch (error) {
    log.error("collab: a stored document could not be read", { documentId, error });
    throw new DocumentDamagedError(documentId, error);
  }
  try {
    return read(bound.editor);
  } finally {
    bound.dispose();
    bound.doc.destroy();
  }
}
