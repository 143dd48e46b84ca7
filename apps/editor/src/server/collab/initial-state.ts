import { log } from "@coauthor/agent-workflow";
import { findAccessibleDocument } from "@/server/documents";
import { currentDocumentState } from "./document-content";
import { stateLoads } from "./document-health";

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
  let current: Awaited<ReturnType<typeof currentDocumentState>>;
  try {
    current = await currentDocumentState(documentId);
  } catch (error) {
    log.warn("collab: no initial state for a page", { documentId, error });
    return null;
  }
  if (!current || current.state.byteLength > MAX_INITIAL_STATE_BYTES) return null;
  const { state, live } = current;
  // A live copy was checked when it loaded, and every update since passed the sync server's door.
  if (!live && (await stateLoads(state)) !== true) return null;
  return Buffer.from(state).toString("base64");
}
