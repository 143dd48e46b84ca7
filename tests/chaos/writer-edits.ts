// What a chaos writer does to the document, as keystrokes in an editor would: types a marker word at
// the end of one of its paragraphs, presses Enter and types one, splits one of its paragraphs between
// two words, or toggles bold or italic on one of its words. A writer touches only paragraphs of its
// own (each starts with one of its markers), so no concurrent edit by anyone else may legitimately
// remove its words: every marker it typed must survive, whatever the faults did.
import {
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isParagraphNode,
  $isRangeSelection,
  $setSelection,
  type LexicalEditor,
  type ParagraphNode,
  type TextNode,
} from "lexical";
import type { Random } from "./random.ts";

export type WriterEditKind = "type" | "enter" | "split" | "format";

export const WRITER_EDIT_WEIGHTS: readonly (readonly [WriterEditKind, number])[] = [
  ["type", 6],
  ["enter", 2],
  ["split", 1],
  ["format", 1.5],
];

/** The paragraphs of the writer whose markers start with `prefix`, in document order. */
function $ownParagraphs(prefix: string): ParagraphNode[] {
  return $getRoot()
    .getChildren()
    .filter(
      (node): node is ParagraphNode => $isParagraphNode(node) && node.getTextContent().startsWith(prefix),
    );
}

/** Where character `offset` of `paragraph`'s text is: a text node and an offset in it. */
function $pointAt(paragraph: ParagraphNode, offset: number): { node: TextNode; offset: number } | null {
  let before = 0;
  const nodes = paragraph.getAllTextNodes();
  for (const node of nodes) {
    const size = node.getTextContentSize();
    if (offset <= before + size) return { node, offset: offset - before };
    before += size;
  }
  return null;
}

/** The start and end of each word of `text` (a run of non-spaces). */
function wordsOf(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** A new paragraph holding `marker` at the end of the document (the writer's first words). */
function $appendParagraph(marker: string): void {
  $getRoot().append($createParagraphNode().append($createTextNode(marker)));
}

/** The caret at the end of `paragraph`'s text. */
function $caretAtEnd(paragraph: ParagraphNode) {
  const last = paragraph.getAllTextNodes().at(-1);
  if (!last) return paragraph.selectEnd();
  const size = last.getTextContentSize();
  return last.select(size, size);
}

/**
 * Makes one edit of `kind` (one editor update, as one keystroke or shortcut would) in the writer's
 * own paragraphs; `marker` is the word typed, if the edit types one. Returns the marker typed, or
 * null when the edit typed nothing (a split or a format).
 */
export function writerEdit(
  editor: LexicalEditor,
  kind: WriterEditKind,
  prefix: string,
  marker: string,
  random: Random,
): string | null {
  let typed: string | null = null;
  editor.update(
    () => {
      const own = $ownParagraphs(prefix);
      const target = own.length > 0 ? (random.chance(0.6) ? own.at(-1) : random.pick(own)) : undefined;
      if (!target) {
        $appendParagraph(marker);
        typed = marker;
      } else if (kind === "type") {
        $caretAtEnd(target).insertText(` ${marker}`);
        typed = marker;
      } else if (kind === "enter") {
        $caretAtEnd(target).insertParagraph();
        const caret = $getSelection();
        if (!$isRangeSelection(caret)) throw new Error("no caret after Enter");
        caret.insertText(marker);
        typed = marker;
      } else if (kind === "split") {
        // Enter just before a word other than the first: the paragraph's tail becomes a paragraph
        // of its own, which starts with one of this writer's markers too.
        const words = wordsOf(target.getTextContent()).slice(1);
        const point = words.length > 0 ? $pointAt(target, random.pick(words).start) : null;
        if (point) point.node.select(point.offset, point.offset).insertParagraph();
      } else {
        const word = random.pick(wordsOf(target.getTextContent()));
        const start = $pointAt(target, word.start);
        const end = $pointAt(target, word.end);
        if (start && end) {
          const selection = start.node.select(start.offset, start.offset);
          selection.focus.set(end.node.getKey(), end.offset, "text");
          selection.formatText(random.chance(0.5) ? "bold" : "italic");
        }
      }
      // No caret left behind: remote changes land in an editor that has no selection to keep.
      $setSelection(null);
    },
    { discrete: true },
  );
  return typed;
}
