import { type BlockSuggestion, MAX_SUGGESTION_REASON } from "@coauthor/types";
import {
  $createParagraphNode,
  $getRoot,
  $isParagraphNode,
  type LexicalEditor,
  type LexicalNode,
} from "lexical";
import { InvalidContentError } from "./content-problem.ts";
import {
  CriticMarkupError,
  isSyntaxOnly,
  type ScannedChange,
  type ScannedSide,
  scanCriticMarkup,
} from "./criticmarkup-syntax.ts";
import { $readMarkdownSpans, type MarkdownSpan } from "./markdown-parse.ts";
import { $setBlockSuggestion, type SuggestionAuthor, suggestionId } from "./suggestions.ts";

// CriticMarkup → a document whose changes are pending suggestions. The markup comes out first
// (criticmarkup-syntax.ts), leaving the Markdown as if every change were rejected and as if every
// one were accepted; both are read, and each block of either is placed back in the source. Blocks
// of the two sides that overlap there, with the changes they overlap, make one group: a group
// without a change is an unchanged block; one with changes is its old blocks proposed for deletion
// and its new ones proposed for insertion, with one suggestion id. A side that is only block
// syntax once the markup is out (`- {++item++}` leaves `- `) has no block.

type Item =
  | {
      side: "old" | "new";
      start: number;
      end: number;
      nodes: LexicalNode[];
      textStart: number;
      textEnd: number;
    }
  | { side: "change"; start: number; end: number; change: ScannedChange };

/** The offset in `text` where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}

function sourceLine(source: string, offset: number): number {
  return source.slice(0, offset).split("\n").length;
}

/** The blocks of one side, each with where it is in its side's text and in the source. */
function $sideItems(source: string, side: ScannedSide, name: "old" | "new"): Item[] {
  const read = $readMarkdownSpans(side.text);
  const starts = lineStarts(side.text);
  const offsetOf = (point: MarkdownSpan["start"]) => (starts[point.line - 1] ?? 0) + point.column - 1;
  if (!read.ok) {
    // The problem's line is the side's: the writer wants the line of the file.
    const at = side.sourceOffset(starts[read.problem.line - 1] ?? 0);
    throw new InvalidContentError({ ...read.problem, line: sourceLine(source, at) });
  }
  const items: Item[] = [];
  for (const span of read.spans) {
    const nodes = span.nodes.filter((node) => !($isParagraphNode(node) && node.getChildrenSize() === 0));
    const textStart = offsetOf(span.start);
    const textEnd = offsetOf(span.end);
    if (nodes.length === 0 || textEnd <= textStart) continue;
    const start = side.sourceOffset(textStart);
    items.push({ side: name, start, end: side.sourceOffset(textEnd - 1) + 1, nodes, textStart, textEnd });
  }
  return items;
}

/** Items that overlap in the source, transitively: each group is one block, or one change and its blocks. */
function groupItems(items: Item[]): Item[][] {
  const sorted = [...items].sort((a, b) => a.start - b.start);
  const groups: Item[][] = [];
  let end = -1;
  for (const item of sorted) {
    const group = groups.at(-1);
    if (group !== undefined && item.start < end) group.push(item);
    else groups.push([item]);
    end = Math.max(end, item.end);
  }
  return groups;
}

/** The text one side's blocks of a group span, from the first to the last. */
function sideText(side: ScannedSide, blocks: Array<Item & { side: "old" | "new" }>): string {
  const first = blocks[0];
  const last = blocks.at(-1);
  return first === undefined || last === undefined ? "" : side.text.slice(first.textStart, last.textEnd);
}

/**
 * Reads `markdown` with CriticMarkup into new, unattached top-level blocks (inside an active
 * update): unchanged blocks, and the changed ones as pending suggestions of `author`, their
 * reasons from the `{>> <<}` after a change. Throws CriticMarkupError on markup it does not read,
 * InvalidContentError when either side breaks the content rule.
 */
export function $readCriticMarkup(markdown: string, author: SuggestionAuthor): LexicalNode[] {
  const scanned = scanCriticMarkup(markdown);
  const items: Item[] = [
    ...$sideItems(markdown, scanned.old, "old"),
    ...$sideItems(markdown, scanned.new, "new"),
    ...scanned.changes.map(
      (change): Item => ({ side: "change", start: change.start, end: change.end, change }),
    ),
  ];
  const at = Date.now();
  const out: LexicalNode[] = [];
  for (const group of groupItems(items)) {
    const olds = group.filter((item): item is Item & { side: "old" } => item.side === "old");
    const news = group.filter((item): item is Item & { side: "new" } => item.side === "new");
    const changes = group.flatMap((item) => (item.side === "change" ? [item.change] : []));
    if (changes.length === 0 && olds.length === news.length) {
      for (const item of news) for (const node of item.nodes) out.push(node);
      continue;
    }
    const oldGone =
      changes.every((change) => change.kind === "insertion") && isSyntaxOnly(sideText(scanned.old, olds));
    const newGone =
      changes.every((change) => change.kind === "deletion") && isSyntaxOnly(sideText(scanned.new, news));
    const reasons = changes.flatMap((change) => (change.reason ? [change.reason] : []));
    const reason = reasons.join(" ");
    if (reason.length > MAX_SUGGESTION_REASON)
      throw new CriticMarkupError(
        `line ${sourceLine(markdown, changes[0]?.start ?? 0)}: a reason may be at most ${MAX_SUGGESTION_REASON} characters`,
      );
    const id = suggestionId();
    const suggestion = (change: BlockSuggestion["change"]): BlockSuggestion => ({
      id,
      change,
      authorId: author.authorId,
      authorName: author.authorName,
      ...(author.runId ? { runId: author.runId } : {}),
      ...(reason ? { reason } : {}),
      at,
    });
    if (!oldGone)
      for (const item of olds)
        for (const node of item.nodes) out.push($setBlockSuggestion(node, suggestion("deleted")));
    if (!newGone)
      for (const item of news)
        for (const node of item.nodes) out.push($setBlockSuggestion(node, suggestion("inserted")));
  }
  return out;
}

/**
 * Replaces the whole document of `editor` with `markdown` read as CriticMarkup, committing
 * synchronously; throws (CriticMarkupError, InvalidContentError), leaving the document as it was,
 * when it cannot be read.
 */
export function importCriticMarkup(
  editor: LexicalEditor,
  markdown: string,
  author: SuggestionAuthor,
  options?: { tag?: string },
): void {
  editor.update(
    () => {
      const blocks = $readCriticMarkup(markdown, author);
      $getRoot()
        .clear()
        .append(...(blocks.length > 0 ? blocks : [$createParagraphNode()]));
    },
    { discrete: true, tag: options?.tag },
  );
}
