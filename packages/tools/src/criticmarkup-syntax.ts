// CriticMarkup (criticmarkup.com) as Coauthor writes and reads it: `{++added++}`, `{--removed--}`,
// `{~~old~>new~~}`, and `{>>why<<}` right after a change. It is a layer over Markdown: reading
// takes the markup out, leaving the Markdown of the document as if every change were rejected
// (`old`) and as if every one were accepted (`new`). A backslash before `\`, `{`, `}` or `>` keeps
// a delimiter from being one (in Markdown text that backslash is an escape, so the text reads the
// same); the writer escapes text that would otherwise read as markup.

/** Why a text cannot be read, or a document cannot be written, as CriticMarkup. */
export class CriticMarkupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CriticMarkupError";
  }
}

export type ChangeKind = "insertion" | "deletion" | "substitution";

/** One change as read: where its markup is in the source (end exclusive), and the reason after it. */
export interface ScannedChange {
  kind: ChangeKind;
  start: number;
  end: number;
  reason?: string;
}

/** One side of the source: its text, and for each of its runs where the run is in the source. */
export class ScannedSide {
  text = "";
  /** Pairs of (offset in `text`, offset in the source) where a run copied from the source starts. */
  private readonly runs: number[] = [];

  append(source: string, from: number, to: number): void {
    if (to <= from) return;
    this.runs.push(this.text.length, from);
    this.text += source.slice(from, to);
  }

  /** The source offset of the character at `offset` of this side's text. */
  sourceOffset(offset: number): number {
    let low = 0;
    let high = this.runs.length / 2 - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.runs[middle * 2] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return (this.runs[low * 2 + 1] ?? 0) + offset - (this.runs[low * 2] ?? 0);
  }
}

export interface ScannedCriticMarkup {
  old: ScannedSide;
  new: ScannedSide;
  changes: ScannedChange[];
}

const OPENERS: Record<string, ChangeKind | "comment" | "highlight"> = {
  "{++": "insertion",
  "{--": "deletion",
  "{~~": "substitution",
  "{>>": "comment",
  "{==": "highlight",
};

const ESCAPABLE = new Set(["\\", "{", "}", ">"]);

/** The 1-based line of `offset` in `source`, for messages. */
function lineOf(source: string, offset: number): number {
  let line = 1;
  for (
    let index = source.indexOf("\n");
    index !== -1 && index < offset;
    index = source.indexOf("\n", index + 1)
  )
    line += 1;
  return line;
}

/** Where `delimiter` next starts in `source` from `from`, skipping escaped characters; -1 when nowhere. */
function findDelimiter(source: string, from: number, delimiter: string): number {
  for (let index = from; index < source.length; index++) {
    if (source[index] === "\\" && ESCAPABLE.has(source[index + 1] ?? "")) index += 1;
    else if (source.startsWith(delimiter, index)) return index;
  }
  return -1;
}

function closing(source: string, from: number, delimiter: string, opener: number): number {
  const at = findDelimiter(source, from, delimiter);
  if (at === -1)
    throw new CriticMarkupError(
      `line ${lineOf(source, opener)}: "${source.slice(opener, opener + 3)}" is never closed with "${delimiter}"`,
    );
  return at;
}

/** A comment's text: its escapes taken out. */
function unescapeComment(text: string): string {
  return text.replace(/\\([\\{}>])/g, "$1");
}

/**
 * Takes the CriticMarkup out of `source`: the text as if every change were rejected and as if
 * every one were accepted, and the changes. Throws CriticMarkupError on markup left open, on a
 * comment that follows no change, and on a highlight (`{== ==}`): it marks no change to propose.
 */
export function scanCriticMarkup(source: string): ScannedCriticMarkup {
  const scanned: ScannedCriticMarkup = { old: new ScannedSide(), new: new ScannedSide(), changes: [] };
  let plainFrom = 0;
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    if (char === "\\" && ESCAPABLE.has(source[index + 1] ?? "")) {
      index += 2;
      continue;
    }
    const kind = char === "{" ? OPENERS[source.slice(index, index + 3)] : undefined;
    if (kind === undefined) {
      index += 1;
      continue;
    }
    scanned.old.append(source, plainFrom, index);
    scanned.new.append(source, plainFrom, index);
    index = readMarkup(source, index, kind, scanned);
    plainFrom = index;
  }
  scanned.old.append(source, plainFrom, source.length);
  scanned.new.append(source, plainFrom, source.length);
  return scanned;
}

/** Reads the markup of `kind` opening at `start` into `scanned`; returns where it ends. */
function readMarkup(
  source: string,
  start: number,
  kind: ChangeKind | "comment" | "highlight",
  scanned: ScannedCriticMarkup,
): number {
  const from = start + 3;
  if (kind === "highlight")
    throw new CriticMarkupError(
      `line ${lineOf(source, start)}: a highlight ("{==") proposes no change; only {++ ++}, {-- --}, {~~ ~> ~~} and a {>> <<} reason right after one are read`,
    );
  if (kind === "comment") {
    const end = closing(source, from, "<<}", start);
    const change = scanned.changes.at(-1);
    if (change === undefined || change.end !== start)
      throw new CriticMarkupError(
        `line ${lineOf(source, start)}: a comment ("{>>") must follow a change right after its "}", as its reason`,
      );
    const reason = unescapeComment(source.slice(from, end));
    change.reason = change.reason === undefined ? reason : `${change.reason} ${reason}`;
    return end + 3;
  }
  if (kind === "insertion" || kind === "deletion") {
    const end = closing(source, from, kind === "insertion" ? "++}" : "--}", start);
    (kind === "insertion" ? scanned.new : scanned.old).append(source, from, end);
    scanned.changes.push({ kind, start, end: end + 3 });
    return end + 3;
  }
  const arrow = closing(source, from, "~>", start);
  const end = closing(source, arrow + 2, "~~}", start);
  scanned.old.append(source, from, arrow);
  scanned.new.append(source, arrow + 2, end);
  scanned.changes.push({ kind, start, end: end + 3 });
  return end + 3;
}

/** Where text goes in the markup the writer makes: each place has its own delimiters to escape. */
export type MarkupPlace = "plain" | "insertion" | "deletion" | "old" | "new";

const OPENER_PATTERN = /(\\*)\{(?=\+\+|--|~~|>>|==)/g;
const CLOSERS: Record<Exclude<MarkupPlace, "plain">, RegExp> = {
  insertion: /\+\+\}/g,
  deletion: /--\}/g,
  old: /~>/g,
  new: /~~\}/g,
};

/**
 * `markdown` with what would read as a delimiter in `place` escaped: an opener outside markup, the
 * closer inside. In Markdown text the added backslash is an escape (it reads the same); in code it
 * would not be, which the writer finds when it reads its output back.
 */
export function escapeMarkup(markdown: string, place: MarkupPlace): string {
  if (place === "plain")
    // An opener whose "{" is already escaped (odd backslashes before it) is no opener.
    return markdown.replace(OPENER_PATTERN, (match, slashes: string) =>
      slashes.length % 2 === 1 ? match : `${slashes}\\{`,
    );
  return markdown.replace(CLOSERS[place], (match) => `${match.slice(0, -1)}\\${match.slice(-1)}`);
}

/** A reason as the text of a `{>> <<}` comment. */
export function escapeComment(reason: string): string {
  return reason.replace(/[\\{}>]/g, "\\$&");
}

/**
 * The block syntax at the start of a line that the writer leaves outside markup (list markers with
 * a task box, quote markers, a heading's hashes, indentation), so the file reads as Markdown.
 */
const LINE_PREFIX =
  /^[ \t]*(?:(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?|#{1,6}[ \t]+)[ \t]*)*/;

/** The block syntax `line` starts with (see LINE_PREFIX). */
export function linePrefix(line: string): string {
  return LINE_PREFIX.exec(line)?.[0] ?? "";
}

/** Whether `text` is only block syntax and blank space: what is left of a block all of whose content was marked. */
export function isSyntaxOnly(text: string): boolean {
  return text.split("\n").every((line) => line.slice(linePrefix(line).length).trim() === "");
}
