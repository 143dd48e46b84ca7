import type { BoundDocumentEditor } from "@coauthor/tools";
import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import { bindLoadedState, reportDamage } from "./document-health";
import { loadStoredState } from "./stored-state";
import { liveDocument } from "./sync-server";

/**
 * The document's current Yjs state: the live copy's when this instance has the document open (it
 * has every update it received, and was checked when it loaded: `live` true), else the stored state
 * (not yet checked). Null when the document does not exist.
 */
export async function currentDocumentState(
  documentId: string,
): Promise<{ state: Uint8Array; live: boolean } | null> {
  const live = liveDocument(documentId);
  if (live && !live.isLoading) return { state: Y.encodeStateAsUpdate(live), live: true };
  const state = await loadStoredState(documentId);
  return state ? { state, live: false } : null;
}

/**
 * Runs `read` on a headless editor holding the document's current content: the live copy when
 * this instance has the document open (it has every update it received), else the stored state.
 * Null when the document does not exist; a `DocumentDamagedError` (the damage is reported) when its
 * content cannot be read. The server's reads (chat, export) all come through here: JSON and
 * Markdown are derived from Yjs, never stored beside it.
 */
export async function readDocument<T>(
  documentId: string,
  read: (editor: LexicalEditor) => T,
): Promise<T | null> {
  const current = await currentDocumentState(documentId);
  if (!current) return null;
  const { state } = current;
  let bound: BoundDocumentEditor;
  try {
    bound = bindLoadedState(state);
  } catch (error) {
    throw await reportDamage(documentId, error);
  }
  try {
    return read(bound.editor);
  } finally {
    bound.dispose();
    bound.doc.destroy();
  }
}
