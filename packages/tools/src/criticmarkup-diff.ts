import { escapeMarkup, isSyntaxOnly, linePrefix } from "./criticmarkup-syntax.ts";

// The markup of one suggested block, or of one replaced block and its replacement: line by line,
// each line's block syntax (list marker, quote marker, heading hashes) left outside the markup so
// the file stays readable Markdown; a replacement of the same shape as its block as the words that
// differ.

/** Marked-up Markdown, and where the last markup in it ends (where its reason goes). */
export interface Marked {
  text: string;
  lastMarkupEnd: number;
}

class MarkedBuilder {
  text = "";
  lastMarkupEnd = -1;
  plain(markdown: string): void {
    this.text += escapeMarkup(markdown, "plain");
  }
  change(old: string, added: string): void {
    if (old === "") this.text += `{++${escapeMarkup(added, "insertion")}++}`;
    else if (added === "") this.text += `{--${escapeMarkup(old, "deletion")}--}`;
    else this.text += `{~~${escapeMarkup(old, "old")}~>${escapeMarkup(added, "new")}~~}`;
    this.lastMarkupEnd = this.text.length;
  }
  done(): Marked {
    return { text: this.text, lastMarkupEnd: this.lastMarkupEnd };
  }
}

/** The lines of `markdown` with their block syntax apart (none in a code block: all of its lines are content). */
function splitLines(markdown: string, code: boolean): Array<{ prefix: string; rest: string }> {
  return markdown.split("\n").map((line) => {
    const prefix = code ? "" : linePrefix(line);
    return { prefix, rest: line.slice(prefix.length) };
  });
}

/**
 * A block proposed as a whole (`inserted`: `{++ ++}`, `deleted`: `{-- --}`): the content of each
 * line marked, its block syntax outside; a block that is all syntax (an empty heading) marked whole.
 */
export function markWholeBlock(markdown: string, change: "inserted" | "deleted", code: boolean): Marked {
  const out = new MarkedBuilder();
  const mark = (text: string) => (change === "inserted" ? out.change("", text) : out.change(text, ""));
  const lines = splitLines(markdown, code);
  if (lines.every((line) => line.rest.trim() === "")) {
    mark(markdown);
    return out.done();
  }
  lines.forEach(({ prefix, rest }, index) => {
    if (index > 0) out.text += "\n";
    out.plain(prefix);
    if (rest.trim() === "") out.plain(rest);
    else mark(rest);
  });
  return out.done();
}

/** A replacement as one change: `{~~old~>new~~}`. */
export function markReplacedBlock(old: string, added: string): Marked {
  const out = new MarkedBuilder();
  out.change(old, added);
  return out.done();
}

const TOKEN = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
/** Past this many token pairs in one line the words are not compared (the whole block is marked instead). */
const MAX_DIFF_CELLS = 4_000_000;

type Run = { same: true; text: string } | { same: false; old: string; added: string };

/** The runs of tokens two lines share and those that differ (longest common subsequence), or null when too long to compare. */
function diffTokens(old: string[], added: string[]): Run[] | null {
  let head = 0;
  while (head < old.length && head < added.length && old[head] === added[head]) head += 1;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < added.length - head &&
    old[old.length - 1 - tail] === added[added.length - 1 - tail]
  )
    tail += 1;
  const a = old.slice(head, old.length - tail);
  const b = added.slice(head, added.length - tail);
  if (a.length * b.length > MAX_DIFF_CELLS) return null;
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
  const runs: Run[] = [];
  const push = (same: boolean, oldText: string, addedText: string) => {
    const last = runs.at(-1);
    if (same && last?.same) last.text += oldText;
    else if (!same && last !== undefined && !last.same) {
      last.old += oldText;
      last.added += addedText;
    } else runs.push(same ? { same: true, text: oldText } : { same: false, old: oldText, added: addedText });
  };
  push(true, old.slice(0, head).join(""), "");
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push(true, a[i] ?? "", "");
      i += 1;
      j += 1;
    } else if (
      j < b.length &&
      (i === a.length || (lengths[i * width + j + 1] ?? 0) >= (lengths[(i + 1) * width + j] ?? 0))
    )
      push(false, "", b[j++] ?? "");
    else push(false, a[i++] ?? "", "");
  }
  push(true, old.slice(old.length - tail).join(""), "");
  return runs.filter((run) => !run.same || run.text !== "");
}

/**
 * A shared run that ends in an odd run of backslashes would escape the "{" of the markup after it:
 * its last character joins the change instead.
 */
function keepOpenersFree(runs: Run[]): Run[] {
  for (let index = 1; index < runs.length; index++) {
    const run = runs[index];
    const before = runs[index - 1];
    if (run === undefined || run.same || before === undefined || !before.same) continue;
    const slashes = /\\+$/.exec(before.text)?.[0].length ?? 0;
    if (slashes % 2 === 0) continue;
    before.text = before.text.slice(0, -1);
    run.old = `\\${run.old}`;
    run.added = `\\${run.added}`;
  }
  return runs;
}

/**
 * A replacement of the same shape as the block it replaces (as many lines, each with the same
 * block syntax) as the words that differ: `The {~~quick~>slow~~} fox`. Null when the shapes differ,
 * the two read the same as Markdown, or a line is too long to compare: the caller marks the whole
 * block.
 */
export function markChangedWords(old: string, added: string, code: boolean): Marked | null {
  if (old === added) return null;
  const oldLines = splitLines(old, code);
  const addedLines = splitLines(added, code);
  if (oldLines.length !== addedLines.length) return null;
  const out = new MarkedBuilder();
  let insertionsOnly = true;
  let deletionsOnly = true;
  for (const [index, oldLine] of oldLines.entries()) {
    const addedLine = addedLines[index];
    if (addedLine === undefined || addedLine.prefix !== oldLine.prefix) return null;
    const runs = diffTokens(oldLine.rest.match(TOKEN) ?? [], addedLine.rest.match(TOKEN) ?? []);
    if (runs === null) return null;
    if (index > 0) out.text += "\n";
    out.plain(oldLine.prefix);
    for (const run of keepOpenersFree(runs)) {
      if (run.same) {
        out.plain(run.text);
        continue;
      }
      if (run.old !== "") insertionsOnly = false;
      if (run.added !== "") deletionsOnly = false;
      out.change(run.old, run.added);
    }
  }
  // Markup that only adds to a block of bare syntax reads back as a new block, not a changed one.
  if ((insertionsOnly && isSyntaxOnly(old)) || (deletionsOnly && isSyntaxOnly(added))) return null;
  return out.done();
}
