import { hasForbiddenControl, MAX_NESTING_DEPTH, withoutForbiddenControls } from "@coauthor/types";
import { $createParagraphNode, $createTextNode, $getRoot, type LexicalNode } from "lexical";
import * as Y from "yjs";
import { bindDocumentEditor, flush, YJS_ROOT_NAME } from "./yjs-document.ts";

// Documents stored before the content rule (packages/types/src/content-rule.ts) was enforced at
// every door may break it: nesting deeper than the rule (which overflows the stack of Lexical's
// Yjs binding, so the document would not open at all) or text with control characters (which
// PostgreSQL refuses to store as text). Such a document is repaired as it loads, by an ordinary
// forward change to its Yjs document — so every copy, an offline one too, converges on the
// repaired content — rather than by replacing its state.
//
// Everything here walks the Yjs tree with an explicit stack: the content being repaired is, by
// definition, deeper than any recursion should go.

/** What a repair changed. */
export interface ContentRepair {
  /** The repaired document state (the original's items, the repair on top). */
  state: Uint8Array;
  /** Top-level blocks nested past the rule, each replaced by paragraphs of its text. */
  flattenedBlocks: number;
  /** Control characters removed from text. */
  removedControls: number;
}

type Element = Y.XmlText | Y.XmlElement;

/** The children of an element as the v1 binding keeps them: embedded Yjs types and text strings. */
function contentOf(element: Element): Array<Element | Y.Map<unknown> | string> {
  if (element instanceof Y.XmlElement) return element.toArray().filter((child) => child instanceof Y.XmlText);
  return element.toDelta().map((op: { insert: Element | Y.Map<unknown> | string }) => op.insert);
}

/** Whether any element under `block` (a top-level block, depth 1) is nested deeper than the rule. */
function nestsTooDeep(block: Element): boolean {
  const stack: Array<[Element, number]> = [[block, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, depth] = entry;
    if (depth > MAX_NESTING_DEPTH) return true;
    for (const child of contentOf(element)) {
      if (child instanceof Y.XmlText || child instanceof Y.XmlElement) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The text of every element under `block`, one line per element in document order, controls removed. */
function linesOf(block: Element): string[] {
  const lines: string[] = [];
  const stack: Element[] = [block];
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    const children = contentOf(element);
    const text = children.filter((child) => typeof child === "string").join("");
    if (text.trim() !== "") lines.push(withoutForbiddenControls(text));
    const nested = children.filter((child) => child instanceof Y.XmlText || child instanceof Y.XmlElement);
    // Pushed last-first, so the first child is visited next.
    for (let index = nested.length - 1; index >= 0; index--) stack.push(nested[index] as Element);
  }
  return lines;
}

/** Removes control characters from every text string in the document; returns how many. */
function removeControls(root: Y.XmlText): number {
  let removed = 0;
  const stack: Element[] = [root];
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    if (!(element instanceof Y.XmlText)) {
      for (const child of contentOf(element)) if (child instanceof Y.XmlText) stack.push(child);
      continue;
    }
    // Offsets of the characters to delete, found first, deleted from the end (earlier offsets stay valid).
    const doomed: number[] = [];
    let offset = 0;
    for (const child of contentOf(element)) {
      if (typeof child === "string") {
        if (hasForbiddenControl(child)) {
          for (let index = 0; index < child.length; index++) {
            if (hasForbiddenControl(child.charAt(index))) doomed.push(offset + index);
          }
        }
        offset += child.length;
      } else {
        offset += 1;
        if (child instanceof Y.XmlText || child instanceof Y.XmlElement) stack.push(child);
      }
    }
    for (let index = doomed.length - 1; index >= 0; index--) element.delete(doomed[index] as number, 1);
    removed += doomed.length;
  }
  return removed;
}

/**
 * Repairs a stored document state that breaks the content rule, or returns null when it keeps it.
 * A top-level block nested past the rule is replaced by paragraphs holding its text (every word is
 * kept; its lists and quotes are not); control characters are removed from text.
 */
export function repairContent(state: Uint8Array): ContentRepair | null {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, state);
    const root = doc.get(YJS_ROOT_NAME, Y.XmlText);
    const blocks = contentOf(root);
    // Each deep block: where it is among the root's children, and the lines that replace it.
    const deep: Array<{ index: number; lines: string[] }> = [];
    blocks.forEach((block, index) => {
      if ((block instanceof Y.XmlText || block instanceof Y.XmlElement) && nestsTooDeep(block)) {
        deep.push({ index, lines: linesOf(block) });
      }
    });
    let removedControls = 0;
    doc.transact(() => {
      // The root holds only embedded blocks (length 1 each), so a child's index is its offset.
      for (let at = deep.length - 1; at >= 0; at--) root.delete((deep[at] as { index: number }).index, 1);
      removedControls = removeControls(root);
    });
    if (deep.length === 0 && removedControls === 0) return null;
    // The paragraphs go in through a headless editor bound to the repaired document, so they are
    // nodes as the binding writes them, with block ids.
    const bound = bindDocumentEditor(Y.encodeStateAsUpdate(doc));
    try {
      bound.editor.update(
        () => {
          // Walk the original blocks in order: a surviving block moves the cursor to itself, a
          // deep one puts its paragraphs after the cursor (before the first block when there is none).
          const survivors = $getRoot().getChildren();
          const replaced = new Map(deep.map(({ index, lines }) => [index, lines]));
          let cursor: LexicalNode | null = null;
          let survivor = 0;
          for (let index = 0; index < blocks.length; index++) {
            const lines = replaced.get(index);
            if (lines === undefined) {
              cursor = survivors[survivor++] ?? cursor;
              continue;
            }
            for (const line of lines) {
              const paragraph = $createParagraphNode().append($createTextNode(line));
              if (cursor !== null) cursor.insertAfter(paragraph);
              else {
                const first = $getRoot().getFirstChild();
                if (first === null) $getRoot().append(paragraph);
                else first.insertBefore(paragraph);
              }
              cursor = paragraph;
            }
          }
          if ($getRoot().getChildrenSize() === 0) $getRoot().append($createParagraphNode());
        },
        { discrete: true },
      );
      flush(bound.editor);
      return {
        state: Y.encodeStateAsUpdate(bound.doc),
        flattenedBlocks: deep.length,
        removedControls,
      };
    } finally {
      bound.dispose();
      bound.doc.destroy();
    }
  } finally {
    doc.destroy();
  }
}
