import { $getBlockId, $getBlockSuggestion } from "@coauthor/tools";
import { $getNodeByKey, $isRootNode, type LexicalEditor, type LexicalNode, type NodeKey } from "lexical";
import { changedSpans, type TextSpan, textChanges } from "./word-diff";

// A replaced block is two blocks in the shared document: its old version, proposed for deletion,
// and its new one, proposed for insertion (packages/tools/src/suggestions.ts). Marking both whole
// would hide which words changed, so the page marks the words: in the old block the deleted ones,
// in the new block the inserted ones, through the CSS Custom Highlight API (no element is added
// to the editor's DOM, which Lexical owns). The decision stays per block.

/** The names globals.css styles with `::highlight(…)`. */
const REMOVED_WORDS = "suggestion-removed-words";
const ADDED_WORDS = "suggestion-added-words";

/** Elements whose start begins a new line of text (a list item, a table cell, a line break). */
const LINE_STARTS = new Set(["BR", "LI", "P", "TD", "TH", "TR", "H1", "H2", "H3", "H4", "H5", "H6"]);

/** A replaced block's two halves as shown: their keys and the word ranges painted on them. */
interface MarkedPair {
  deletedKey: NodeKey;
  insertedKey: NodeKey;
  removed: Range[];
  added: Range[];
}

/** The old and new halves of the replacement `node` belongs to, when they stand side by side. */
function $replacedHalves(node: LexicalNode): { deleted: LexicalNode; inserted: LexicalNode } | null {
  const suggestion = $getBlockSuggestion(node);
  if (suggestion === null) return null;
  const [deleted, inserted] =
    suggestion.change === "deleted" ? [node, node.getNextSibling()] : [node.getPreviousSibling(), node];
  if (deleted === null || inserted === null) return null;
  const old = $getBlockSuggestion(deleted);
  const current = $getBlockSuggestion(inserted);
  const paired =
    old?.change === "deleted" &&
    current?.change === "inserted" &&
    old.id === current.id &&
    old.restoreId !== undefined &&
    old.restoreId === $getBlockId(inserted);
  return paired ? { deleted, inserted } : null;
}

/** `element`'s text as read (a line break between lines) and where each DOM text node starts in it. */
function textOf(element: HTMLElement): { text: string; nodes: Array<{ node: Text; start: number }> } {
  const walker = element.ownerDocument.createTreeWalker(
    element,
    NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT,
  );
  const nodes: Array<{ node: Text; start: number }> = [];
  let text = "";
  for (let current = walker.nextNode(); current !== null; current = walker.nextNode()) {
    if (current instanceof Text) {
      nodes.push({ node: current, start: text.length });
      text += current.data;
    } else if (current instanceof Element && LINE_STARTS.has(current.tagName) && text !== "") text += "\n";
  }
  return { text, nodes };
}

/** DOM ranges covering `spans` of the text `textOf` read, one per text node a span crosses. */
function rangesFor(nodes: Array<{ node: Text; start: number }>, spans: TextSpan[]): Range[] {
  const ranges: Range[] = [];
  for (const [from, to] of spans) {
    for (const { node, start } of nodes) {
      const end = start + node.data.length;
      if (end <= from || start >= to) continue;
      const range = node.ownerDocument.createRange();
      range.setStart(node, Math.max(from, start) - start);
      range.setEnd(node, Math.min(to, end) - start);
      ranges.push(range);
    }
  }
  return ranges;
}

/** The highlight registered as `name`, made and registered on first use (one per page). */
function highlightNamed(registry: HighlightRegistry, name: string): Highlight {
  const existing = registry.get(name);
  if (existing !== undefined) return existing;
  const made = new Highlight();
  registry.set(name, made);
  return made;
}

/**
 * Marks the changed words of every replacement in `editor`'s page, after each update that touches
 * one of its halves (a co-editor's copy marks them as they arrive). A pair whose texts are equal
 * (format or type changed) or share no word keeps its whole-block marks. In a browser without
 * the Highlight API nothing changes: the blocks keep their whole-block marks.
 */
export function registerSuggestionWordMarks(editor: LexicalEditor): () => void {
  const registry = typeof CSS !== "undefined" && "highlights" in CSS ? CSS.highlights : undefined;
  if (registry === undefined) return () => {};
  const removedWords = highlightNamed(registry, REMOVED_WORDS);
  const addedWords = highlightNamed(registry, ADDED_WORDS);
  const marked = new Map<NodeKey, MarkedPair>();

  const unmark = (pair: MarkedPair) => {
    for (const range of pair.removed) removedWords.delete(range);
    for (const range of pair.added) addedWords.delete(range);
    for (const key of [pair.deletedKey, pair.insertedKey])
      delete editor.getElementByKey(key)?.dataset.wordMarks;
    marked.delete(pair.insertedKey);
  };

  const mark = (deleted: LexicalNode, inserted: LexicalNode) => {
    const oldElement = editor.getElementByKey(deleted.getKey());
    const newElement = editor.getElementByKey(inserted.getKey());
    if (oldElement === null || newElement === null) return;
    const old = textOf(oldElement);
    const current = textOf(newElement);
    const spans = changedSpans(textChanges(old.text, current.text));
    if (spans === null) return;
    const pair: MarkedPair = {
      deletedKey: deleted.getKey(),
      insertedKey: inserted.getKey(),
      removed: rangesFor(old.nodes, spans.removed),
      added: rangesFor(current.nodes, spans.added),
    };
    for (const range of pair.removed) removedWords.add(range);
    for (const range of pair.added) addedWords.add(range);
    oldElement.dataset.wordMarks = "";
    newElement.dataset.wordMarks = "";
    marked.set(pair.insertedKey, pair);
  };

  const stopListening = editor.registerUpdateListener(({ editorState, dirtyElements }) => {
    if (dirtyElements.size === 0) return;
    // A pair either half of which changed (or went) is marked again from what it is now.
    for (const pair of [...marked.values()])
      if (dirtyElements.has(pair.deletedKey) || dirtyElements.has(pair.insertedKey)) unmark(pair);
    editorState.read(() => {
      for (const key of dirtyElements.keys()) {
        const node = $getNodeByKey(key);
        if (node === null || !$isRootNode(node.getParent())) continue;
        const halves = $replacedHalves(node);
        if (halves !== null && !marked.has(halves.inserted.getKey())) mark(halves.deleted, halves.inserted);
      }
    });
  });
  return () => {
    stopListening();
    for (const pair of [...marked.values()]) unmark(pair);
  };
}
