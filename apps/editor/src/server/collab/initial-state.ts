import { log } from "@coauthor/agent-workflow";
import * as Y from "yjs";
import { findAccessibleDocument } from "@/server/documents";
import { stateLoads } from "./document-health";
import { loadStoredState } from "./stored-state";
import { liveDocument } from "./sync-server";

/**
 * Largest document state sent with the page (base64 adds a third): a 50-paragraph document is
 * ~10 KB. A larger one comes over the socket only, and its editor is editable once it has.
 */
export const MAX_INITIAL_STATE_BYTES = 512 * 1024;

/**
 * The document's Yjs state to send with its page, base64, so the editor holds the document — and
 * takes typing — from its first render instead of after the socket's first sync: keystrokes made
 * while the editor waited for the sync were dropped (typing into an empty root instead would put
 * them beside the document's real first paragraph). The same items the socket would send, so the
 * sync that follows merges nothing twice. Null when the user may not open the document, it is too
 * large, or its stored state does not load (the socket then reports the damage).
 */
export async function initialDocumentState(userId: string, documentId: string): Promise<string | null> {
  if (!(await findAccessibleDocument(userId, documentId))) return null;
  const live = liveDocument(documentId);
  let state: Uint8Array | null;
  if (live && !live.isLoading) {
    // Checked when it loaded; every update since passed the sync server's door.
    state = Y.encodeStateAsUpdate(live);
  } else {
    try {
      state = await loadStoredState(documentId);
    } catch (error) {
      log.warn("collab: no initial state for a page", { documentId, error });
      return null;
    }
    if (state && state.byteLength <= MAX_INITIAL_STATE_BYTES && !stateLoads(state)) return null;
  }
  if (!state || state.byteLength > MAX_INITIAL_STATE_BYTES) return null;
  return Buffer.from(state).toString("base64");
}
