// LLM-facing descriptions of the editor tools. Kept apart from the schemas so they can be read and
// tuned as prose; imported by the server through ./definitions.ts (no Lexical here).
import type { ToolName } from "@coauthor/types/tools";

const IDS =
  'Blocks are the document\'s top-level elements (paragraph, heading, quote, code block, list, table) plus every list item; each has a stable id such as "b1x2y3z4a", taken from readDocument, findText or an earlier result. Ids never change while a block exists.';
const FAIL =
  'On failure the result is { ok: false, code, message } and the document is unchanged; the message says what to fix. Codes: "invalid-input" (arguments do not match the schema; the message names the field), "unknown-block" (no such id: read the document again), "wrong-block-type", "invalid-position", "invalid-range", "invalid-markdown", "not-found", "stale-target" (someone changed or deleted that block since you read it: read it again, then decide), "internal-error".';
const POSITION =
  'position is { at: "start" } or { at: "end" } of the document, { at: "before" | "after", blockId } next to a top-level block, or { at: "selection" } (after the block holding the user\'s cursor; fails with "no-selection" when there is none). In an empty document the placeholder paragraph is replaced.';
const MARKDOWN =
  "Markdown (CommonMark + GFM): # headings, paragraphs, - bullet / 1. numbered / - [ ] check lists (indent nested items under the item's text), > quotes, ``` fenced code with a language, pipe tables (| a | b | then | - | :-: |), --- rules, **bold**, *italic*, ~~strike~~, `code`, [links](https://…). Separate blocks with a blank line; escape a character with \\ to keep it literal.";
const WRITE =
  "The edit applies entirely or not at all and returns blockIds: the ids of the blocks it created or changed.";

/** Description of each tool, written for the model. */
export const toolDescriptions: { [K in ToolName]: string } = {
  readDocument: [
    "Read the document as a page of top-level blocks: id, type (paragraph, heading-1..heading-6, quote, code, bullet-list, number-list, check-list, table, rule) and content as Markdown; lists also list their items with id, depth and text.",
    "Pages are bounded by maxBlocks (default 200) and maxChars of Markdown (default 20000). Start at fromBlock (0-based index) or fromBlockId; when nextFromBlock is not null, call again with fromBlock = nextFromBlock. totalBlocks is the document's length.",
    "Read before editing so you know the ids; for long documents read only the part you need, or use findText.",
    IDS,
    FAIL,
  ].join(" "),
  readSelection: [
    "Read what the user has selected (or where the cursor is): the selected plain text, the ids of the blocks it touches, and anchor/focus as { blockId, offset } in the block's plain text.",
    'selection is null when the editor has no selection. Use it when the user says "this", "the selection" or "here".',
    FAIL,
  ].join(" "),
  findText: [
    "Find text in the document (or in one block with blockId). query is plain text unless regex is true; caseSensitive defaults to true.",
    "Returns matches as { blockId, start, end, text }: offsets count in the plain text of that block (for lists: of that list item; line breaks and table cell breaks count as one character). Use them with formatText, or pass the blockId to replaceText/replaceBlock.",
    'Regex patterns are JavaScript syntax without backreferences, lookarounds or nested quantifiers such as (a+)+, with at most two unbounded quantifiers; others fail with "unsafe-regex". Long searches stop early with truncated: true (also when maxResults, default 50, is reached).',
    FAIL,
  ].join(" "),
  insertBlocks: [
    "Insert new blocks written as Markdown.",
    POSITION,
    MARKDOWN,
    "To add items to a list, pass a Markdown list and position before/after one of its items' ids.",
    WRITE,
    IDS,
    FAIL,
  ].join(" "),
  replaceBlock: [
    "Replace one block with new content written as Markdown; the first new block keeps the old id. Prefer it for rewriting a paragraph or section.",
    "For a list item id, the Markdown must be one line of text (replaces the item's text, keeps nested items) or a list (its items replace the item). For a whole list or table, use the list's or table's id.",
    MARKDOWN,
    WRITE,
    IDS,
    FAIL,
  ].join(" "),
  replaceText: [
    'Replace plain text (exact, case-sensitive, not Markdown) with new plain text, in one block (blockId) or anywhere in the document (no blockId). occurrence "first" replaces only the first match, "all" (default) every match. It matches exactly what findText (regex false, caseSensitive true) finds, also across formatting: an occurrence takes the formatting of its first character. Block ids are those findText gives (list items, not the list).',
    "Returns the number of replacements and the ids of the blocks that changed; acrossBreaks { count, blockIds } lists occurrences left as they were because they span a line break or table cells: rewrite those blocks with replaceBlock.",
    'Code "not-found" means the text does not occur (or only across a line break or table cells); check the spelling against readDocument, or use replaceBlock.',
    IDS,
    FAIL,
  ].join(" "),
  deleteBlocks: [
    "Delete whole blocks or list items by id. Either all listed blocks are deleted or, if any id is unknown, none. A list left without items is removed; deleting every block leaves one empty paragraph.",
    WRITE,
    IDS,
    FAIL,
  ].join(" "),
  moveBlock: [
    'Move one block to { at: "start" | "end" } of the document, or { at: "before" | "after", blockId } next to another block. A list item moves next to another list item (also into another list); start/end of a list item mean start/end of its list. The block keeps its id and content.',
    WRITE,
    IDS,
    FAIL,
  ].join(" "),
  setBlockType: [
    'Change the type of a block: paragraph, heading-1..heading-6, quote, code (optional language such as "ts"), bullet-list, number-list or check-list. Text and inline formatting are kept (code blocks keep only plain text); ids carry over.',
    "For a whole list: a list type changes the list; another type turns every item into its own block (each keeps its item's id). For a list item: it is taken out of its list (which splits around it) unless its list already has the type. Tables cannot change type.",
    WRITE,
    IDS,
    FAIL,
  ].join(" "),
  formatText: [
    'Change formatting of a stretch of text inside one block or list item: add and/or remove any of bold, italic, underline, strikethrough, code; link: "https://…" makes it a link, link: null removes links there.',
    "Choose the text with text (the occurrence-th match, default 1st, exact and case-sensitive) or with start/end offsets from findText or readSelection. Code blocks and whole lists (use an item's id) cannot be formatted.",
    WRITE,
    IDS,
    FAIL,
  ].join(" "),
  insertTable: [
    "Insert a table from rows of plain-text cells; the first row is the header unless header is false. Shorter rows are padded with empty cells.",
    POSITION,
    "Returns the table's id in blockIds; change cells later with updateTableCell.",
    FAIL,
  ].join(" "),
  updateTableCell: [
    "Replace the content of one table cell, addressed by the table's id, row and column (both from 0; row 0 is the header row). text may use inline Markdown (**bold**, *italic*, `code`, [link](url)).",
    WRITE,
    FAIL,
  ].join(" "),
  decideSuggestions: [
    "In Suggest mode your writes land as suggestions the writers accept or reject. Accept or reject your own run's pending suggestions: decision accept makes them part of the document, reject takes them back.",
    "blockIds (from your earlier results) names the blocks whose suggestions to decide; leave it out to decide all of this run's pending suggestions. Other authors' suggestions are never decided.",
    'Returns decided (how many) and blockIds (the blocks that stay changed). Fails with "not-suggesting" when the run is not in Suggest mode.',
    "When people accept or reject your suggestions, the next successful result of any tool lists them in decidedByPeople (decision, by whom, the block and the text proposed): do not propose a rejected change again unless asked.",
    FAIL,
  ].join(" "),
};
