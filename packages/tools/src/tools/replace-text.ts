import type { ReplaceTextInput, ReplaceTextOutput } from "@coauthor/types/tools";
import { $createTextNode, $isTabNode, type LexicalEditor, type LexicalNode, type TextNode } from "lexical";
import { applyAgentEdit, toolFailure } from "../agent-edit.ts";
import { $getBlockId } from "../block-id.ts";
import { $forEachTextUnit, $unitsOf, $unitText, type TextSegment } from "./text-units.ts";
import { $resolveBlock, isFailure } from "./tool-helpers.ts";

// replaceText searches the same text findText does — each text unit's plain text (a top-level
// block or one list item), whatever formatting it is split into — so the two always agree on what
// occurs. An occurrence spanning differently formatted pieces (half bold, a link's edge) becomes
// the replacement in the formatting of its first character, as in word processors; only one
// spanning a line break or table cells (text no single run of the block holds) is left alone.

/** One cut in a text node: characters [start, end) become `text`. */
type Cut = { node: TextNode; start: number; end: number; text: string };
type Skipped = { count: number; blockIds: string[] };

/** Where `search` occurs in `text`, non-overlapping, left to right. */
function occurrencesIn(text: string, search: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(search); at !== -1; ) {
    starts.push(at);
    at = text.indexOf(search, at + search.length);
  }
  return starts;
}

/**
 * The cuts replacing characters [start, end) of a unit with `replace`: the replacement goes into
 * the first piece, the rest of the occurrence is cut from the pieces after it. Null when the
 * pieces leave a gap (a line break or a cell boundary lies inside the occurrence).
 */
function cutsFor(segments: TextSegment[], start: number, end: number, replace: string): Cut[] | null {
  const pieces = segments.filter((segment) => segment.end > start && segment.start < end);
  let covered = start;
  for (const piece of pieces) {
    if (piece.start > covered) return null;
    covered = piece.end;
  }
  if (covered < end) return null;
  return pieces.map((piece, index) => ({
    node: piece.node,
    start: Math.max(start, piece.start) - piece.start,
    end: Math.min(end, piece.end) - piece.start,
    text: index === 0 ? replace : "",
  }));
}

/** Applies `cuts` (all in `node`, in any order) to its text; an emptied node goes. */
function $applyCuts(node: TextNode, cuts: Cut[]): void {
  let text = node.getTextContent();
  for (const cut of [...cuts].sort((a, b) => b.start - a.start))
    text = text.slice(0, cut.start) + cut.text + text.slice(cut.end);
  if (text === "") node.remove();
  // A tab node holds only "\t" and refuses other text: plain text in its formatting takes its place.
  else if ($isTabNode(node)) node.replace($createTextNode(text).setFormat(node.getFormat()));
  else if (text !== node.getTextContent()) node.setTextContent(text);
}

/** The units `input` searches: the whole document's, or one block's (every item of a list). */
function $unitsToSearch(
  input: ReplaceTextInput,
): Array<[LexicalNode, string]> | ReturnType<typeof toolFailure> {
  const units: Array<[LexicalNode, string]> = [];
  if (input.blockId === undefined) {
    $forEachTextUnit((unit, id) => {
      units.push([unit, id]);
      return true;
    });
    return units;
  }
  const block = $resolveBlock(input.blockId, "blockId");
  if (isFailure(block)) return block;
  for (const unit of $unitsOf(block)) units.push([unit, $getBlockId(unit) ?? ""]);
  return units;
}

/** Replaces plain text inside one block or the whole document; see the note at the top. */
export function replaceText(editor: LexicalEditor, input: ReplaceTextInput): ReplaceTextOutput {
  return applyAgentEdit(editor, (): ReplaceTextOutput => {
    const units = $unitsToSearch(input);
    if (isFailure(units)) return units;
    const cuts = new Map<TextNode, Cut[]>();
    const changed: string[] = [];
    const skipped: Skipped = { count: 0, blockIds: [] };
    let remaining = input.occurrence === "first" ? 1 : Number.POSITIVE_INFINITY;
    let replacements = 0;
    for (const [unit, id] of units) {
      if (remaining === 0) break;
      const { text, segments } = $unitText(unit);
      let replacedHere = false;
      for (const start of occurrencesIn(text, input.search)) {
        if (remaining === 0) break;
        const planned = cutsFor(segments, start, start + input.search.length, input.replace);
        if (planned === null) {
          skipped.count++;
          if (!skipped.blockIds.includes(id)) skipped.blockIds.push(id);
          continue;
        }
        for (const cut of planned) cuts.set(cut.node, [...(cuts.get(cut.node) ?? []), cut]);
        replacements++;
        remaining--;
        replacedHere = true;
      }
      if (replacedHere) changed.push(id);
    }
    if (replacements === 0) {
      const where = input.blockId === undefined ? "the document" : `block "${input.blockId}"`;
      return toolFailure(
        "not-found",
        skipped.count > 0
          ? `search: "${input.search}" only occurs across a line break or table cells in ${where}; replace the whole block instead`
          : `search: "${input.search}" does not occur in ${where}`,
      );
    }
    for (const [node, nodeCuts] of cuts) $applyCuts(node, nodeCuts);
    return {
      ok: true,
      replacements,
      blockIds: changed,
      ...(skipped.count > 0 ? { acrossBreaks: skipped } : {}),
    };
  });
}
