// What a document may hold, whichever door its content comes through: a co-editor's sync update,
// a Markdown import or paste, an agent tool, a restore. One definition, read by every door's check
// (`@coauthor/tools` applies it to Yjs updates and parsed Markdown; the app to requests).

/**
 * Deepest nesting of element nodes a document may hold, counted as Lexical nests them: a top-level
 * block is depth 1, and each list, list item, quote, link or table part inside another adds one
 * (an item of a list nested once is depth 4: list, item, list, item). Real documents stay far
 * below it; every path that walks content recursively (Lexical's Yjs binding, Markdown export,
 * block diffs) handles well over 1,000 levels, so 64 leaves a margin on both sides.
 */
export const MAX_NESTING_DEPTH = 64;

/** Most columns one table may have (wider Markdown tables are refused, not truncated). */
export const MAX_TABLE_COLUMNS = 64;

/** Most cells one table may have. */
export const MAX_TABLE_CELLS = 20_000;

/** The close reason (and error code) of content that breaks the rule. */
export const INVALID_CONTENT = "invalid-content";

// C0 controls other than tab (\t) and line feed (\n): PostgreSQL cannot store NUL in text, and
// none of the others is anything a writer can see or type.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** True when `text` holds a character no document text may hold (C0 controls but tab and newline, DEL). */
export function hasForbiddenControl(text: string): boolean {
  return FORBIDDEN_CONTROL.test(text);
}

/**
 * `text` without the characters a document may not hold: carriage returns become newlines (a
 * Windows line end is one newline), the other controls are dropped. For the editor's own input
 * (typing, paste), which should never meet the sync server's refusal.
 */
export function withoutForbiddenControls(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(FORBIDDEN_CONTROLS, "");
}

/**
 * The error code of content the rule allows but the server could not turn into a document (or an
 * export) within its time budget: whole-document work is bounded in time, so no request stalls
 * the server (apps/editor/src/server/document-work).
 */
export const CONTENT_TOO_SLOW = "content-too-slow";

/**
 * The error code of a new document whose Yjs state would be larger than one the server serves
 * without stalling (see @coauthor/tools' MAX_IMPORTED_STATE_BYTES).
 */
export const DOCUMENT_TOO_LARGE = "document-too-large";
