import { log } from "@coauthor/agent-workflow";
import { COMMENTS_ROOT_NAME, rootsWrittenBy, updateContentViolation } from "@coauthor/tools";
import { INVALID_CONTENT } from "@coauthor/types";
import type * as Y from "yjs";

/** The application close code of content that breaks the rule (4000–4999 are the application's). */
export const INVALID_CONTENT_CODE = 4422;

/**
 * The error that closes a copy's connection for content the document must not hold. Hocuspocus
 * closes the connection with its code and reason; the client reads the reason (INVALID_CONTENT)
 * from the close message and stops (it must not send the same update again on every reconnect).
 */
export function invalidContent(detail: string): Error & { code: number; reason: string } {
  return Object.assign(new Error(`invalid document content: ${detail}`), {
    code: INVALID_CONTENT_CODE,
    reason: INVALID_CONTENT,
  });
}

/**
 * Root types of the document only the server writes: comment threads are added, edited and
 * deleted through the API (which checks the author's role and the text), never through a socket.
 */
const SERVER_OWNED_ROOTS = [COMMENTS_ROOT_NAME];

/**
 * Checks an update a copy sent (sync step 2 or an update) against the content rule before
 * Hocuspocus applies it to `document`: throws `invalidContent` for bytes that are not a Yjs update
 * or content that breaks the rule (logged once, with the document id), so it is never applied,
 * broadcast or stored. When only the document's pending structs break it (a chain sent earlier
 * whose missing anchor this update brings), they are dropped and the update goes through: whoever
 * holds legitimate pending structs sends them again with their next sync, and a writer whose
 * keystroke happens to complete someone's hostile chain is not locked out.
 */
export function checkIncomingUpdate(documentId: string, update: Uint8Array, document: Y.Doc): void {
  let violation: ReturnType<typeof updateContentViolation>;
  let roots: ReturnType<typeof rootsWrittenBy>;
  try {
    violation = updateContentViolation(update, document);
    roots = rootsWrittenBy(update, document);
  } catch (error) {
    log.warn("collab: refused bytes that are not a Yjs update", { documentId, error });
    throw invalidContent("not a Yjs update");
  }
  const serverOwned = SERVER_OWNED_ROOTS.filter((root) => roots.has(root));
  if (serverOwned.length > 0) {
    const detail = `writes to ${serverOwned.join(", ")}`;
    log.warn("collab: refused an update that writes what only the server writes", { documentId, detail });
    throw invalidContent(detail);
  }
  if (violation === null) return;
  if (violation.inPending) {
    log.warn("collab: dropped pending structs that break the content rule", {
      documentId,
      rule: violation.rule,
      detail: violation.detail,
    });
    document.store.pendingStructs = null;
    return;
  }
  log.warn("collab: refused an update that breaks the content rule", {
    documentId,
    rule: violation.rule,
    detail: violation.detail,
  });
  throw invalidContent(violation.detail);
}
