import type { BlockSuggestion } from "@coauthor/types";
import { $isCodeNode } from "@lexical/code";
import { $isListNode } from "@lexical/list";
import type { LexicalNode } from "lexical";
import { type Marked, markChangedWords, markReplacedBlock, markWholeBlock } from "./criticmarkup-diff.ts";
import { CriticMarkupError, escapeComment, escapeMarkup, linePrefix } from "./criticmarkup-syntax.ts";
import { $blockMarkdown } from "./markdown-write.ts";
import { $getBlockSuggestion } from "./suggestions.ts";

// The document with its pending suggestions in CriticMarkup: a block proposed for insertion as
// `{++ ++}`, one proposed for removal as `{-- --}`, a replaced block and its replacement (a deleted
// block right before an inserted one with the same suggestion id) as the words that differ, or as
// `{~~old~>new~~}` when the two differ in shape; a reason as `{>> <<}` after the last markup of its
// suggestion. Reading it back (criticmarkup-read.ts) gives the same blocks and suggestions.

/** A top-level block as the export sees it: unchanged, proposed alone, or replaced. */
export type Unit =
  | { kind: "same"; node: LexicalNode }
  | { kind: "lone"; node: LexicalNode; suggestion: BlockSuggestion }
  | { kind: "pair"; old: LexicalNode; added: LexicalNode; suggestion: BlockSuggestion };

/** The document's blocks as units, empty paragraphs left out (Markdown has no way to write one). */
export function $suggestionUnits(blocks: ReadonlyArray<LexicalNode>): Unit[] {
  const written = blocks.filter((node) => $blockMarkdown(node) !== "");
  const units: Unit[] = [];
  for (let index = 0; index < written.length; index++) {
    const node = written[index] as LexicalNode;
    const suggestion = $getBlockSuggestion(node);
    if (suggestion === null) {
      units.push({ kind: "same", node });
      continue;
    }
    const next = written[index + 1];
    const nextSuggestion = next === undefined ? null : $getBlockSuggestion(next);
    if (
      next !== undefined &&
      suggestion.change === "deleted" &&
      nextSuggestion?.change === "inserted" &&
      nextSuggestion.id === suggestion.id
    ) {
      units.push({ kind: "pair", old: node, added: next, suggestion });
      index += 1;
    } else units.push({ kind: "lone", node, suggestion });
  }
  return units;
}

type ListKind = "ordered" | "unordered";
/** What the last block written on one side (as if rejected, as if accepted) was: a list, or another block. */
type SideState = { kind: ListKind; alternate: boolean } | null;

function listKind(node: LexicalNode): ListKind | null {
  if (!$isListNode(node)) return null;
  return node.getListType() === "number" ? "ordered" : "unordered";
}

/**
 * Chooses the list markers of each list so that neither side reads two lists as one: a list right
 * after a list of its kind takes the other markers. A block proposed alone leaves its block syntax
 * on the other side too (`- {++item++}` reads as an empty list there), so it counts on both.
 * Throws CriticMarkupError when the two sides need different markers for one list.
 */
class ListMarkers {
  private old: SideState = null;
  private added: SideState = null;

  /**
   * Whether `node` takes the other markers, written on `sides`; `leavesSyntax`: a block proposed
   * alone whose block syntax stays on the other side too.
   */
  choose(node: LexicalNode, sides: { old: boolean; added: boolean }, leavesSyntax: boolean): boolean {
    const kind = listKind(node);
    const onOld = sides.old || leavesSyntax;
    const onAdded = sides.added || leavesSyntax;
    if (kind === null) {
      if (onOld) this.old = null;
      if (onAdded) this.added = null;
      return false;
    }
    const needs = [onOld ? this.old : null, onAdded ? this.added : null]
      .filter((state): state is { kind: ListKind; alternate: boolean } => state?.kind === kind)
      .map((state) => !state.alternate);
    if (needs.length === 2 && needs[0] !== needs[1])
      throw new CriticMarkupError(
        "two lists around a suggestion need different list markers on each side; export it accepted or rejected instead",
      );
    const alternate = needs[0] ?? false;
    if (onOld) this.old = { kind, alternate };
    if (onAdded) this.added = { kind, alternate };
    return alternate;
  }
}

/** Whether a block proposed alone leaves block syntax on the side it is not on (`# `, `- `, `> `). */
function $leavesSyntax(node: LexicalNode): boolean {
  return !$isCodeNode(node) && linePrefix($blockMarkdown(node).split("\n")[0] ?? "") !== "";
}

function withReason(marked: Marked, reason: string | undefined): string {
  if (!reason || marked.lastMarkupEnd < 0) return marked.text;
  const at = marked.lastMarkupEnd;
  return `${marked.text.slice(0, at)}{>>${escapeComment(reason)}<<}${marked.text.slice(at)}`;
}

/** The units as CriticMarkup Markdown (blocks separated by a blank line). */
export function $writeCriticMarkup(units: ReadonlyArray<Unit>): string {
  const markers = new ListMarkers();
  const parts: string[] = [];
  for (const unit of units) {
    if (unit.kind === "same") {
      const alternate = markers.choose(unit.node, { old: true, added: true }, false);
      parts.push(escapeMarkup($blockMarkdown(unit.node, alternate), "plain"));
      continue;
    }
    if (unit.kind === "lone") {
      const inserted = unit.suggestion.change === "inserted";
      const alternate = markers.choose(
        unit.node,
        { old: !inserted, added: inserted },
        $leavesSyntax(unit.node),
      );
      const marked = markWholeBlock(
        $blockMarkdown(unit.node, alternate),
        unit.suggestion.change,
        $isCodeNode(unit.node),
      );
      parts.push(withReason(marked, unit.suggestion.reason));
      continue;
    }
    const { old, added } = unit;
    const kind = listKind(old);
    const sameShape = old.getType() === added.getType() && kind === listKind(added);
    let oldAlternate: boolean;
    let addedAlternate: boolean;
    if (sameShape) {
      oldAlternate = markers.choose(old, { old: true, added: true }, false);
      addedAlternate = oldAlternate;
    } else {
      oldAlternate = markers.choose(old, { old: true, added: false }, false);
      addedAlternate = markers.choose(added, { old: false, added: true }, false);
    }
    const oldMarkdown = $blockMarkdown(old, oldAlternate);
    const addedMarkdown = $blockMarkdown(added, addedAlternate);
    const marked =
      (sameShape ? markChangedWords(oldMarkdown, addedMarkdown, $isCodeNode(old)) : null) ??
      markReplacedBlock(oldMarkdown, addedMarkdown);
    parts.push(withReason(marked, unit.suggestion.reason));
  }
  return parts.join("\n\n");
}
