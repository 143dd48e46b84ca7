import { log } from "@coauthor/agent-workflow";
import { plainTextOf } from "@coauthor/tools";
import type * as Y from "yjs";

// The text itself is read in @coauthor/tools (also in the document worker, for imports).
export { MAX_SEARCH_TEXT_CHARS, plainTextOf, plainTextOfState } from "@coauthor/tools";

/** A live document's text to store for search, or undefined (the stored text stays) when it cannot be read. */
export function searchTextOf(documentId: string, document: Y.Doc): string | undefined {
  try {
    return plainTextOf(document);
  } catch (error) {
    log.warn("collab: could not derive the document's text for search", { documentId, error });
    return undefined;
  }
}
