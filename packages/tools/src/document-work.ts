import type { MarkdownView } from "@coauthor/types";
import * as Y from "yjs";
import { InvalidContentError } from "./content-problem.ts";
import { repairContent } from "./content-repair.ts";
import { importCriticMarkup } from "./criticmarkup-read.ts";
import { CriticMarkupError } from "./criticmarkup-syntax.ts";
import { type DocumentBlock, documentBlocks } from "./document-blocks.ts";
import { createDocumentEditor } from "./document-editor.ts";
import { exportMarkdown } from "./markdown.ts";
import { exportMarkdownView, hasPendingSuggestions } from "./markdown-views.ts";
import { plainTextOfState } from "./plain-text.ts";
import type { SuggestionAuthor } from "./suggestions.ts";
import { unknownNodeTypes } from "./update-content-check.ts";
import {
  type BoundDocumentEditor,
  bindDocumentEditor,
  yjsUpdateFromMarkdown,
  yjsUpdateFromState,
} from "./yjs-document.ts";

// The server's whole-document conversions, each costing time in proportion to the document
// (seconds for the largest Markdown the content rule accepts). The app runs them in worker threads
// (apps/editor/src/server/document-work), where a time budget can stop one without holding up the
// event loop. So they take and return only what crosses a thread: strings and bytes in, plain
// objects out; an expected refusal is a value (a thrown error would lose its class on the way).

/**
 * Largest Yjs state a new document may start from. The server stores, loads and sends a document's
 * state on its event loop (the embedded database works there too), in time that grows with the
 * state: about a tenth of a second a megabyte on a loaded 2-core machine. 1 MB of prose makes
 * 1.7 MB, 10,000 short paragraphs 3.9 MB; the content rule's largest structures make far more (a
 * 20,000-cell table 12 MB, 10,000 list items 8 MB, 1 MB of flat emphasis 66 MB).
 */
export const MAX_IMPORTED_STATE_BYTES = 4 * 1024 * 1024;

/** A new document made from Markdown: its Yjs state and its plain text for search, or why it was refused. */
export type ImportedDocument =
  | { ok: true; state: Uint8Array; plainText: string }
  | { ok: false; invalidContent: string }
  | { ok: false; invalidCriticMarkup: string }
  | { ok: false; stateBytes: number };

/** Why a stored state does not load (see stateLoadProblem), or null when it does. */
export type LoadProblem = string | null;

/** The Markdown of a stored state, or why it does not load. */
export type ExportedDocument = { ok: true; markdown: string } | { ok: false; damage: string };

/**
 * The Yjs state and plain text of a new document holding `markdown` (the content rule applied),
 * unless its state would be larger than MAX_IMPORTED_STATE_BYTES.
 */
export function importMarkdownDocument(markdown: string): ImportedDocument {
  try {
    return importedDocument(yjsUpdateFromMarkdown(markdown));
  } catch (error) {
    if (error instanceof InvalidContentError) return { ok: false, invalidContent: error.message };
    throw error;
  }
}

/** A new document of `state`, with its plain text for search; refused past MAX_IMPORTED_STATE_BYTES. */
function importedDocument(state: Uint8Array): ImportedDocument {
  if (state.byteLength > MAX_IMPORTED_STATE_BYTES) return { ok: false, stateBytes: state.byteLength };
  return { ok: true, state, plainText: plainTextOfState(state) };
}

/**
 * Like importMarkdownDocument, with `markdown` read as CriticMarkup: its changes become pending
 * suggestions of `author` (see criticmarkup-read.ts); markup it does not read is refused.
 */
export function importCriticMarkupDocument(input: {
  markdown: string;
  author: SuggestionAuthor;
}): ImportedDocument {
  try {
    const editor = createDocumentEditor();
    importCriticMarkup(editor, input.markdown, input.author);
    return importedDocument(yjsUpdateFromState(editor.getEditorState().toJSON()));
  } catch (error) {
    if (error instanceof InvalidContentError) return { ok: false, invalidContent: error.message };
    if (error instanceof CriticMarkupError) return { ok: false, invalidCriticMarkup: error.message };
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

/** The document `state` holds as Markdown and as blocks (to compare it with another state); or why it does not load. */
export function exportStateWithBlocks(
  state: Uint8Array,
): { ok: true; markdown: string; blocks: DocumentBlock[] } | { ok: false; damage: string } {
  const bound = bindState(state);
  if ("problem" in bound) return { ok: false, damage: bound.problem };
  try {
    return {
      ok: true,
      markdown: exportMarkdown(bound.bound.editor),
      blocks: documentBlocks(bound.bound.editor),
    };
  } finally {
    bound.bound.dispose();
    bound.bound.doc.destroy();
  }
}

/** The Markdown of a stored state in a view, whether it has pending suggestions, or why it cannot be given. */
export type ExportedView =
  | { ok: true; markdown: string; hasSuggestions: boolean }
  | { ok: false; damage: string }
  | { ok: false; invalidCriticMarkup: string };

/** The document `state` holds, as Markdown in `view` (see exportMarkdownView). */
export function exportStateView(input: { state: Uint8Array; view: MarkdownView | undefined }): ExportedView {
  const bound = bindState(input.state);
  if ("problem" in bound) return { ok: false, damage: bound.problem };
  const { editor } = bound.bound;
  try {
    return {
      ok: true,
      markdown: exportMarkdownView(editor, input.view),
      hasSuggestions: hasPendingSuggestions(editor),
    };
  } catch (error) {
    if (error instanceof CriticMarkupError) return { ok: false, invalidCriticMarkup: error.message };
    throw error;
  } finally {
    bound.bound.dispose();
    bound.bound.doc.destroy();
  }
}

/** What the repair of a stored state found (see repairContent): nothing to do, the repair, or why it could not read the state. */
export type StoredStateRepair =
  | { repaired: false }
  | {
      repaired: true;
      state: Uint8Array;
      update: Uint8Array;
      flattenedBlocks: number;
      removedControls: number;
    }
  | { unreadable: string };

/**
 * The repair of a stored state that breaks the content rule (repairContent): the repaired state,
 * and the update that makes it from `state` (what the log stores); or that none is needed.
 */
export function repairStoredState(state: Uint8Array): StoredStateRepair {
  let repair: ReturnType<typeof repairContent>;
  try {
    repair = repairContent(state);
  } catch (error) {
    // Bytes Yjs cannot decode, nesting past what Yjs itself walks: the caller logs it.
    return { unreadable: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  if (!repair) return { repaired: false };
  return {
    repaired: true,
    state: repair.state,
    update: Y.diffUpdate(repair.state, Y.encodeStateVectorFromUpdate(state)),
    flattenedBlocks: repair.flattenedBlocks,
    removedControls: repair.removedControls,
  };
}
