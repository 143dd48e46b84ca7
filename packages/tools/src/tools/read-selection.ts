import type { ReadSelectionInput, ReadSelectionOutput } from "@coauthor/types/tools";
import { $isListItemNode } from "@lexical/list";
import {
  $getSelection,
  $isElementNode,
  $isRangeSelection,
  $isTextNode,
  type LexicalEditor,
  type LexicalNode,
  type PointType,
} from "lexical";
import { $getBlockId } from "../block-id.ts";
import { $unitText } from "./text-units.ts";

/** The nearest list item or top-level block holding `node`. */
function $unitOf(node: LexicalNode): LexicalNode | null {
  for (let current: LexicalNode | null = node; current !== null; current = current.getParent()) {
    if ($isListItemNode(current)) return current;
    if (current.getParent()?.getType() === "root") return current;
  }
  return null;
}

function $pointOf(point: PointType): { blockId: string; offset: number } {
  const node = point.getNode();
  const unit = $unitOf(node);
  if (unit === null) return { blockId: "", offset: 0 };
  const { segments } = $unitText(unit);
  let offset = 0;
  if ($isTextNode(node)) {
    const segment = segments.find((s) => s.node.is(node));
    offset = (segment?.start ?? 0) + point.offset;
  } else {
    const child = $isElementNode(node) && point.offset > 0 ? node.getChildAtIndex(point.offset - 1) : null;
    const segment = child
      ? segments.findLast((s) => s.node.is(child) || child.isParentOf(s.node))
      : undefined;
    offset = segment?.end ?? 0;
  }
  return { blockId: $getBlockId(unit) ?? "", offset };
}

/** The user's current selection: its text, the ids of the blocks it touches, and both ends as block offsets. */
export function readSelection(editor: LexicalEditor, _input: ReadSelectionInput): ReadSelectionOutput {
  return editor.read((): ReadSelectionOutput => {
    const selection = $getSelection();
    if (!$isRangeSelection(selection)) return { ok: true, selection: null };
    const blockIds: string[] = [];
    for (const node of selection.getNodes()) {
      const unit = $unitOf(node);
      const id = unit === null ? null : $getBlockId(unit);
      if (id !== null && !blockIds.includes(id)) blockIds.push(id);
    }
    return {
      ok: true,
      selection: {
        collapsed: selection.isCollapsed(),
        text: selection.getTextContent().slice(0, 50_000),
        blockIds,
        anchor: $pointOf(selection.anchor),
        focus: $pointOf(selection.focus),
      },
    };
  });
}
