import { MAX_NESTING_DEPTH, MAX_TABLE_COLUMNS } from "@coauthor/types";
import type { ContentProblem } from "./content-problem.ts";

// The pre-scan: one pass over Markdown source, before micromark sees it, that refuses what would
// send the parser (or the recursive conversions after it) past the content rule or into
// super-linear work. Measured on micromark 4 (figures in docs/markdown.md, "The content rule at
// the Markdown door"):
// - containers: every block quote and list item costs the parser a fixed, large amount (our pnpm
//   patch of micromark-util-edit-map removed the part that grew with the document), and nesting
//   one past the rule overflowed the stack of the conversion (5,000 nested list items);
// - inline content: emphasis, strikethrough and link brackets are matched by walking back over
//   the paragraph's events, and a nested span copies its inside once per level (20,000 emphasis
//   pairs in one paragraph: 107 s; 1,000 `a]` through one long paragraph: 5 s);
// - table rows: the cost grows with the square of a row's cells (50,000 columns: 66 s).
// So the scan bounds, conservatively (it may count more than the parser finds, never less):
// - the containers each line opens or continues (every `>`, list marker and footnote label in the
//   line's prefix, plus one list item per two columns of indentation, the least a nested item's
//   content is indented by) to MAX_NESTING_DEPTH: each container is at least one Lexical level;
//   a footnote definition inside another block is refused outright (see containerPrefix);
// - the container markers of the whole document to MAX_MARKDOWN_CONTAINERS;
// - the cells of any line that could be a table row (unescaped `|` + 1) to MAX_TABLE_COLUMNS;
// - the emphasis and link markers of one paragraph to MAX_PARAGRAPH_MARKERS, which also bounds
//   how deep emphasis and links can nest (half of it). A "paragraph" here is a run of lines no
//   paragraph can run across (markdown-limits.test.ts checks that against micromark's own tree):
//   it ends at a blank line, and a heading, fence, thematic break, list item or table row starts
//   a new one; a code block fenced at column 0 is skipped, as it holds no Markdown.
// The exact rule (Lexical depth, table cells, control characters) is checked on the parsed result
// (markdown-parse.ts with content-rule-check.ts); this scan only keeps the parse linear and shallow.

/**
 * Most emphasis, strikethrough and link markers (`*`, `_`, `~`, `[`, `]`, unescaped) one paragraph
 * may hold, with `<` (autolinks, inline HTML) counted as an eighth of one. The most in ~1,600 real
 * documents (every Markdown file of the workspace's packages) is under 200; past this limit the
 * worst shapes cost more per megabyte than any real content.
 */
export const MAX_PARAGRAPH_MARKERS = 256;

/**
 * Most block quote, list item and footnote markers a document may hold. The most in the same
 * ~1,600 documents is 1,723 (a changelog). Each is costly to parse and to build: 10,000 quotes
 * (156 quotes 64 deep) import in about 0.5 s, 10,000 list items (two editor nodes each) in 3 s.
 */
export const MAX_MARKDOWN_CONTAINERS = 10_000;

/** The bounds the scan holds Markdown to: the content rule's and the parser's, unless a test narrows them. */
export interface SourceLimits {
  nesting: number;
  containers: number;
  cells: number;
  paragraphMarkers: number;
}

const SOURCE_LIMITS: SourceLimits = {
  nesting: MAX_NESTING_DEPTH,
  containers: MAX_MARKDOWN_CONTAINERS,
  cells: MAX_TABLE_COLUMNS,
  paragraphMarkers: MAX_PARAGRAPH_MARKERS,
};

const SPACE = 0x20;
const TAB = 0x09;
/** Columns a tab may stand for (a tab stop is at most this far). */
const TAB_COLUMNS = 4;
/** Columns of indentation that still leave a line where a block may start (CommonMark's 0–3). */
const MAX_BLOCK_INDENT = 3;
/** `<` is counted as this fraction of a marker: it costs the parser far less per occurrence. */
const LT_WEIGHT = 8;

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || Number.isNaN(code);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Length of a list marker (`-`, `+`, `*`, `1.`, `12)`) starting at `i` and followed by a blank, or 0. */
function listMarkerLength(line: string, i: number): number {
  const code = line.charCodeAt(i);
  if (code === 0x2d || code === 0x2b || code === 0x2a) return isBlank(line.charCodeAt(i + 1)) ? 1 : 0;
  let end = i;
  while (end - i < 9 && isDigit(line.charCodeAt(end))) end++;
  if (end === i) return 0;
  const delimiter = line.charCodeAt(end);
  if (delimiter !== 0x2e && delimiter !== 0x29) return 0;
  return isBlank(line.charCodeAt(end + 1)) ? end + 1 - i : 0;
}

/** Length of a footnote definition's label (`[^note]:`) starting at `i`, or 0. */
function footnoteLabelLength(line: string, i: number): number {
  if (!line.startsWith("[^", i)) return 0;
  // A label holds no unescaped bracket, so this stops at the first one and stays linear.
  for (let end = i + 2; end < line.length; end++) {
    const char = line[end];
    if (char === "\\") end++;
    else if (char === "[") return 0;
    else if (char === "]") return line[end + 1] === ":" ? end + 2 - i : 0;
  }
  return 0;
}

/**
 * The containers a line's prefix may open or continue, and its markers. Whitespace at the line's
 * start or after a `>` (but the one space that belongs to the `>`) may continue list items, at
 * least two columns each; whitespace after a list marker is that item's own content offset, and
 * only new containers can follow it. Footnote definitions are the exception: micromark continues
 * any number of nested ones with four spaces (50 levels in 50 lines of `    [^n]: a`), so a
 * footnote label that may sit inside another block (after another label, or after four columns of
 * whitespace) is reported as `nestedFootnote`, to be refused; real footnotes start at column 0.
 */
function containerPrefix(line: string): { containers: number; markers: number; nestedFootnote: boolean } {
  let markers = 0;
  let columns = 0;
  let whitespace = 0;
  let continuing = true;
  let footnotes = 0;
  let nestedFootnote = false;
  let i = 0;
  while (i < line.length) {
    const code = line.charCodeAt(i);
    if (code === SPACE || code === TAB) {
      const width = code === TAB ? TAB_COLUMNS : 1;
      whitespace += width;
      if (continuing) columns += width;
      i += 1;
      continue;
    }
    if (code === 0x3e) {
      markers += 1;
      i += line.charCodeAt(i + 1) === SPACE ? 2 : 1;
      continue;
    }
    const listMarker = listMarkerLength(line, i);
    const footnote = listMarker === 0 ? footnoteLabelLength(line, i) : 0;
    if (listMarker === 0 && footnote === 0) break;
    if (footnote > 0) {
      if (footnotes > 0 || whitespace >= 4) nestedFootnote = true;
      footnotes += 1;
    }
    markers += 1;
    continuing = false;
    i += listMarker + footnote;
  }
  // A line without a marker opens nothing: what it continues was opened, and counted, above it.
  return { containers: markers === 0 ? 0 : markers + Math.floor(columns / 2), markers, nestedFootnote };
}

/** The line after its block quote markers (each at most 3 columns in), and that rest's indentation. */
function afterQuotes(line: string): { quotes: number; rest: string; indent: number } {
  let quotes = 0;
  let i = 0;
  for (;;) {
    let indent = 0;
    let j = i;
    while (j < line.length && (line.charCodeAt(j) === SPACE || line.charCodeAt(j) === TAB)) {
      indent += line.charCodeAt(j) === TAB ? TAB_COLUMNS : 1;
      j++;
    }
    if (indent > MAX_BLOCK_INDENT || line[j] !== ">") return { quotes, rest: line.slice(j), indent };
    quotes++;
    i = j + 1;
    // The space after `>` belongs to the marker.
    if (line.charCodeAt(i) === SPACE) i++;
  }
}

/** The cells `text` would have as a table row (unescaped `|` split cells, even in code spans); 0 without a `|`. */
function tableCells(text: string): number {
  let pipes = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "|") pipes++;
  }
  if (pipes === 0) return 0;
  const trimmed = text.trim();
  const leading = trimmed.startsWith("|") ? 1 : 0;
  const trailing = trimmed.length > 1 && trimmed.endsWith("|") && !trimmed.endsWith("\\|") ? 1 : 0;
  return pipes + 1 - leading - trailing;
}

/** Whether `text` is a GFM table's delimiter row (`| --- | :-: |`), checked without a regex that could backtrack. */
function isDelimiterRow(text: string): boolean {
  let trimmed = text.trim();
  if (!trimmed.includes("|") || !trimmed.includes("-")) return false;
  if (trimmed.startsWith("|")) trimmed = trimmed.slice(1);
  if (trimmed.endsWith("|")) trimmed = trimmed.slice(0, -1);
  return trimmed.split("|").every((cell) => /^:?-+:?$/.test(cell.trim()));
}

const HEADING = /^#{1,6}(?:[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
/** A bullet item, or an ordered one numbered 1, with content: the list items that interrupt a paragraph. */
const INTERRUPTING_ITEM = /^(?:[-+*]|1[.)])[ \t]+\S/;
/** A line that starts some other block, so it cannot be a table's row. */
const NOT_A_ROW = /^(?:[>#<`~=]|[-+*][ \t]|\d{1,9}[.)][ \t])/;
/** HTML blocks (CommonMark kinds 1–5) that run past blank lines, each with what ends it. */
const HTML_BLOCKS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];

/** Emphasis and link markers in `text` (unescaped), `<` weighted. */
function markersIn(text: string): { markers: number; angles: number } {
  let markers = 0;
  let angles = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") i++;
    else if (char === "*" || char === "_" || char === "~" || char === "[" || char === "]") markers++;
    else if (char === "<") angles++;
  }
  return { markers, angles };
}

/**
 * The first place `markdown` goes past the pre-scan's bounds, or null when it is safe to parse.
 * Linear in the length of the source.
 */
export function markdownSourceProblem(
  markdown: string,
  limits: SourceLimits = SOURCE_LIMITS,
): ContentProblem | null {
  const lines = markdown.split(/\r\n?|\n/);
  let paragraph = { markers: 0, angles: 0, line: 1 };
  /** The fence of a top-level code block being skipped (its lines are no Markdown at all). */
  let fence: { char: string; length: number } | null = null;
  /** How the HTML block a line is in ends: a blank line, or a marker; null outside one. */
  let html: RegExp | "blank" | null = null;
  let inTable = false;
  let containers = 0;

  const paragraphProblem = (): ContentProblem | null =>
    paragraph.markers + paragraph.angles / LT_WEIGHT > limits.paragraphMarkers
      ? {
          what: `more than ${limits.paragraphMarkers} emphasis or link markers (*, _, ~, [, ]) in one paragraph`,
          line: paragraph.line,
        }
      : null;
  const startParagraph = (index: number): ContentProblem | null => {
    const problem = paragraphProblem();
    paragraph = { markers: 0, angles: 0, line: index + 1 };
    return problem;
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (fence !== null) {
      const close = FENCE.exec(line.trimStart());
      const marker = close?.[1] ?? "";
      if (
        line.length - line.trimStart().length <= MAX_BLOCK_INDENT &&
        marker.charAt(0) === fence.char &&
        marker.length >= fence.length &&
        (close?.[2] ?? "").trim() === ""
      )
        fence = null;
      continue;
    }
    const prefix = containerPrefix(line);
    if (prefix.nestedFootnote) return { what: "a footnote definition inside another block", line: index + 1 };
    if (prefix.containers > limits.nesting)
      return { what: `more than ${limits.nesting} nested quotes or list items`, line: index + 1 };
    containers += prefix.markers;
    if (containers > limits.containers)
      return {
        what: `more than ${limits.containers.toLocaleString("en-US")} quotes and list items in the document`,
        line: index + 1,
      };
    const { quotes, rest, indent } = afterQuotes(line);
    // The cells after the quote markers: a list marker or footnote label may be a paragraph's
    // text (`2) a | b` continues one), so only `>` is taken off.
    const cells = tableCells(rest);
    if (cells > limits.cells)
      return { what: `a table row of more than ${limits.cells} cells`, line: index + 1 };

    const topLevel = quotes === 0 && indent === 0;
    // A line that may be an HTML block's (its first and last included) starts no other block:
    // taking it for a fence would skip Markdown that follows the HTML.
    let inHtml = html !== null;
    if (html === "blank" && rest.trim() === "") html = null;
    else if (html instanceof RegExp && html.test(line)) html = null;
    else if (html === null && quotes === 0 && indent <= MAX_BLOCK_INDENT && /^<[A-Za-z/!?]/.test(rest)) {
      const kind = HTML_BLOCKS.find(([begin]) => begin.test(rest));
      html = kind === undefined ? "blank" : kind[1].test(rest.replace(kind[0], "")) ? null : kind[1];
      inHtml = true;
    }

    if (rest.trim() === "") {
      inTable = false;
      const problem = startParagraph(index + 1);
      if (problem !== null) return problem;
      continue;
    }
    if (inTable) {
      if (quotes === 0 && indent <= MAX_BLOCK_INDENT && cells > 0 && !NOT_A_ROW.test(rest)) {
        // Each row is parsed on its own: a paragraph of its own here.
        const problem = startParagraph(index);
        if (problem !== null) return problem;
        const { markers, angles } = markersIn(rest);
        paragraph.markers += markers;
        paragraph.angles += angles;
        continue;
      }
      inTable = false;
    }
    if (indent <= MAX_BLOCK_INDENT && !inHtml) {
      const fenceOpen = FENCE.exec(rest);
      if (
        HEADING.test(rest) ||
        THEMATIC_BREAK.test(rest) ||
        (fenceOpen !== null && !((fenceOpen[1] ?? "").startsWith("`") && (fenceOpen[2] ?? "").includes("`")))
      ) {
        // A block of one line: it ends the paragraph above, and none continues it.
        let problem = startParagraph(index);
        if (problem !== null) return problem;
        if (HEADING.test(rest)) {
          const { markers, angles } = markersIn(rest);
          paragraph.markers += markers;
          paragraph.angles += angles;
        }
        problem = startParagraph(index + 1);
        if (problem !== null) return problem;
        // Only a fence at column 0 outside any container is sure to run until its closing fence.
        if (fenceOpen !== null && topLevel && html === null && !HEADING.test(rest)) {
          const marker = fenceOpen[1] ?? "```";
          fence = { char: marker.charAt(0), length: marker.length };
        }
        continue;
      }
      const delimiterRow = lines[index + 1] ?? "";
      const startsTable =
        topLevel &&
        html === null &&
        paragraph.markers === 0 &&
        paragraph.angles === 0 &&
        paragraph.line === index + 1 &&
        cells > 0 &&
        isDelimiterRow(delimiterRow) &&
        delimiterRow.length - delimiterRow.trimStart().length <= MAX_BLOCK_INDENT &&
        !NOT_A_ROW.test(delimiterRow.trimStart()) &&
        tableCells(delimiterRow) === cells;
      if (startsTable) {
        const { markers, angles } = markersIn(rest);
        paragraph.markers += markers;
        paragraph.angles += angles;
        const problem = startParagraph(index + 2);
        if (problem !== null) return problem;
        // The delimiter row holds no inline content.
        index += 1;
        inTable = true;
        continue;
      }
      if (INTERRUPTING_ITEM.test(rest)) {
        const problem = startParagraph(index);
        if (problem !== null) return problem;
      }
    }
    // The whole line: what looks like a list marker or a footnote label may be a paragraph's text.
    const { markers, angles } = markersIn(line);
    paragraph.markers += markers;
    paragraph.angles += angles;
  }
  return paragraphProblem();
}
