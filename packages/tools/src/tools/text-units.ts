import { $isListItemNode, $isListNode } from "@lexical/list";
import {
  $getRoot,
  $isElementNode,
  $isLineBreakNode,
  $isTextNode,
  type ElementNode,
  type LexicalNode,
  type TextNode,
} from "lexical";
import { $getBlockId } from "../block-id.ts";

/**
 * A text unit is what text offsets count within: a top-level block, or one list item (its own
 * line, without nested items). Table cells are separated by "\n" inside the table's unit, line
 * breaks count as "\n", nested list items belong to their own unit.
 */
export type TextSegment = { node: TextNode; start: number; end: number };
export type UnitText = { text: string; segments: TextSegment[] };

function $collect(element: ElementNode, out: { text: string; segments: TextSegment[] }): void {
  for (let child = element.getFirstChild(); child !== null; child = child.getNextSibling()) {
    if ($isTextNode(child)) {
      const text = child.getTextContent();
      out.segments.push({ node: child, start: out.text.length, end: out.text.length + text.length });
      out.text += text;
    } else if ($isLineBreakNode(child)) out.text += "\n";
    else if ($isListNode(child)) continue;
    else if ($isElementNode(child)) {
      if (!child.isInline() && out.text !== "") out.text += "\n";
      $collect(child, out);
    }
  }
}

/** The plain text of a unit with the text node behind each stretch of it. */
export function $unitText(unit: LexicalNode): UnitText {
  const out = { text: "", segments: [] as TextSegment[] };
  if ($isElementNode(unit) && !$isListNode(unit)) $collect(unit, out);
  return out;
}

function $visitList(list: ElementNode, visit: (unit: LexicalNode, id: string) => boolean): boolean {
  for (let item = list.getFirstChild(); item !== null; item = item.getNextSibling()) {
    if (!$isListItemNode(item)) continue;
    const nested = item.getChildren().filter($isListNode);
    if (nested.length !== item.getChildrenSize() && !visit(item, $getBlockId(item) ?? "")) return false;
    for (const child of nested) if (!$visitList(child, visit)) return false;
  }
  return true;
}

/** Visits every text unit in document order until `visit` returns false. */
export function $forEachTextUnit(visit: (unit: LexicalNode, id: string) => boolean): void {
  for (let block = $getRoot().getFirstChild(); block !== null; block = block.getNextSibling()) {
    if ($isListNode(block)) {
      if (!$visitList(block, visit)) return;
    } else if (!visit(block, $getBlockId(block) ?? "")) return;
  }
}

/** Units of `node`: itself, or every item when it is a whole list. */
export function $unitsOf(node: LexicalNode): LexicalNode[] {
  if (!$isListNode(node)) return [node];
  const units: LexicalNode[] = [];
  $visitList(node, (unit) => {
    units.push(unit);
    return true;
  });
  return units;
}
