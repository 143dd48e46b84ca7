import { InvalidContentError } from "./content-problem.ts";
import { exportMarkdown } from "./markdown.ts";
import { plainTextOfState } from "./plain-text.ts";
import { unknownNodeTypes } from "./update-content-check.ts";
import { type BoundDocumentEditor, bindDocumentEditor, yjsUpdateFromMarkdown } from "./yjs-document.ts";

// The server's whole-document conversions, each costing time in proportion to the document
// (seconds for the largest Markdown the content rule accepts). The app runs them in worker threads
// (apps/editor/src/server/document-work), where a time budget can stop one without holding up the
// event loop. So they take and return only what crosses a thread: strings and bytes in, plain
// objects out; an expected refusal is a value (a thrown error would lose its class on the way).

/** A new document made from Markdown: its Yjs state and its plain text for search, or why the rule refused it. */
export type ImportedDocument =
  | { ok: true; state: Uint8Array; plainText: string }
  | { ok: false; invalidContent: string };

/** Why a stored state does not load (see stateLoadProblem), or null when it does. */
export type LoadProblem = string | null;

/** The Markdown of a stored state, or why it does not load. */
export type ExportedDocument = { ok: true; markdown: string } | { ok: false; damage: string };

/** The Yjs state and plain text of a new document holding `markdown` (the content rule applied). */
export function importMarkdownDocument(markdown: string): ImportedDocument {
  try {
    const state = yjsUpdateFromMarkdown(markdown);
    return { ok: true, state, plainText: plainTextOfState(state) };
  } catch (error) {
    if (error instanceof InvalidContentError) return { ok: false, invalidContent: error.message };
    throw error;
  }
}

/** A headless editor on `state`, or why none can be built (not a Yjs update, unknown node types, the binding failed). */
function bindState(state: Uint8Array): { bound: BoundDocumentEditor } | { problem: string } {
  try {
    const unknown = unknownNodeTypes(state);
    if (unknown.length > 0) return { problem: `unknown node types: ${unknown.join(", ")}` };
    return { bound: bindDocumentEditor(state) };
  } catch (error) {
    // The cause, for the server's log: the caller reports the document as damaged.
    return { problem: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/**
 * Why `state` does not load, or null when it does: it decodes, holds only node types the editor
 * knows, and a headless editor bound to it builds without an error.
 */
export function stateLoadProblem(state: Uint8Array): LoadProblem {
  const bound = bindState(state);
  if ("problem" in bound) return bound.problem;
  bound.bound.dispose();
  bound.bound.doc.destroy();
  return null;
}

/** The document `state` holds, as Markdown; or why it does not load (see stateLoadProblem). */
export function exportStateMarkdown(state: Uint8Array): ExportedDocument {
  const bound = bindState(state);
  if ("problem" in bound) return { ok: false, damage: bound.problem };
  try {
    return { ok: true, markdown: exportMarkdown(bound.bound.editor) };
  } finally {
    bound.bound.dispose();
    bound.bound.doc.destroy();
  }
}
