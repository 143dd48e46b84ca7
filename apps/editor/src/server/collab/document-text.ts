import { $getRoot } from "lexical";
import { bindLoadedState } from "./document-health";

/**
 * Characters of a document's text kept for search and snippets: a whole book fits; past it the
 * rest is not found by search (the document itself is unaffected).
 */
export const MAX_SEARCH_TEXT_CHARS = 200_000;

/**
 * The plain text of a Yjs document state (paragraphs separated by blank lines), as the home page
 * searches and shows it. Throws when the state does not load; callers keep the previous text then.
 */
export function plainTextOf(state: Uint8Array): string {
  const bound = bindLoadedState(state);
  try {
    const text = bound.editor.getEditorState().read(() => $getRoot().getTextContent());
    return text.slice(0, MAX_SEARCH_TEXT_CHARS);
  } finally {
    bound.dispose();
    bound.doc.destroy();
  }
}
