import { hasForbiddenControl, MAX_NESTING_DEPTH, withoutForbiddenControls } from "@coauthor/types";
import {
  $getSelection,
  $isRangeSelection,
  type Klass,
  type LexicalEditor,
  mergeRegister,
  TextNode,
} from "lexical";
import { editorNodes } from "./editor-nodes.ts";

// The content rule (packages/types/src/content-rule.ts) kept by the editor itself, so that a
// writer's ordinary input never meets the sync server's refusal of content that breaks it.

/**
 * Element levels above a list's first items where the editor lets a list start: a table cell
 * (table, row, cell). Lists start at the top level or in a cell; quotes and headings hold no lists.
 */
const LIST_START_LEVELS = 3;
/** Element levels inside a list item's text: a link. */
const INLINE_ELEMENT_LEVELS = 1;

/**
 * The deepest a writer may indent a list item with Tab. Indent `k` nests the item in `k` more
 * lists and list items (two levels each): an item in a table cell at indent `k` is at depth
 * `LIST_START_LEVELS + 2 + 2k`, a link in it one deeper, which must stay within MAX_NESTING_DEPTH
 * (29 with a rule of 64 — further than any outline needs).
 */
export const MAX_LIST_INDENT = Math.floor(
  (MAX_NESTING_DEPTH - LIST_START_LEVELS - 2 - INLINE_ELEMENT_LEVELS) / 2,
);

/** The editor's text node classes (a transform runs for its own class only, not for subclasses). */
function textNodeClasses(): Array<Klass<TextNode>> {
  const classes: Array<Klass<TextNode>> = [TextNode];
  for (const node of editorNodes) {
    // Checked just above: a subclass of TextNode (CodeHighlightNode).
    if (node.prototype instanceof TextNode) classes.push(node as Klass<TextNode>);
  }
  return classes;
}

/**
 * Removes the characters no document may hold (C0 controls but tab and newline, DEL; a carriage
 * return becomes a newline) from every text the editor writes: typing, paste, drop, IME, a tool.
 * Transforms run on local updates only (remote ones are applied with transforms skipped), so this
 * keeps what this copy sends within the rule without rewriting what others sent.
 */
export function registerTextControlFilter(editor: LexicalEditor): () => void {
  const $filter = (node: TextNode) => {
    const text = node.getTextContent();
    if (!hasForbiddenControl(text)) return;
    node.setTextContent(withoutForbiddenControls(text));
    // The caret stays where it was in the text that is left (setTextContent leaves it alone).
    const selection = $getSelection();
    if (!$isRangeSelection(selection)) return;
    for (const point of [selection.anchor, selection.focus]) {
      if (point.type === "text" && point.key === node.getKey()) {
        point.offset = withoutForbiddenControls(text.slice(0, point.offset)).length;
      }
    }
  };
  return mergeRegister(...textNodeClasses().map((klass) => editor.registerNodeTransform(klass, $filter)));
}
