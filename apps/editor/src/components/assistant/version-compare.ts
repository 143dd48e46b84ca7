import { type DocumentBlock, longestIncreasingRun } from "@coauthor/tools";
import { type TextPart, textChanges } from "../editor/word-diff";

// Two states of the document compared block by block, as the Versions view shows them: blocks
// matched by their ids, so a block that moved is a move (not a deletion and an insertion) and a
// changed block is compared word by word; each block of the newer state keeps who wrote it.

export type ComparedBlock =
  | { change: "same" | "added" | "removed"; block: DocumentBlock }
  | { change: "changed"; block: DocumentBlock; previous: DocumentBlock; parts: TextPart[] }
  /** Moved, and changed too when `parts` is not null. */
  | { change: "moved"; block: DocumentBlock; previous: DocumentBlock; parts: TextPart[] | null };

/**
 * `after` compared with `before`, in `after`'s order with removed blocks where they were (after
 * the block that preceded them). Blocks found in both are in place when they are in the longest
 * run of blocks kept in the same order, else moved. A block without an id (a state from before
 * ids) is matched by nothing.
 */
export function compareBlocks(before: DocumentBlock[], after: DocumentBlock[]): ComparedBlock[] {
  const positionBefore = new Map<string, number>();
  before.forEach((block, index) => {
    if (block.id !== null) positionBefore.set(block.id, index);
  });
  const matched = after.flatMap((block, index) => {
    const position = block.id === null ? undefined : positionBefore.get(block.id);
    return position === undefined ? [] : [{ index, position }];
  });
  const inPlace = new Set(
    [...longestIncreasingRun(matched.map(({ position }) => position))].map((at) => matched[at]?.index),
  );
  const found = new Set(matched.map(({ position }) => position));
  const compared: Array<{ item: ComparedBlock; position: number | null }> = after.map((block, index) => {
    const position = block.id === null ? undefined : positionBefore.get(block.id);
    if (position === undefined) return { item: { change: "added", block }, position: null };
    const old = before[position] as DocumentBlock;
    const parts = old.markdown === block.markdown ? null : textChanges(old.markdown, block.markdown);
    if (!inPlace.has(index)) return { item: { change: "moved", block, previous: old, parts }, position };
    return {
      item: parts === null ? { change: "same", block } : { change: "changed", block, previous: old, parts },
      position,
    };
  });
  // Each removed block goes right after the nearest block before it that is still shown.
  before.forEach((block, position) => {
    if (found.has(position)) return;
    let at = 0;
    for (let earlier = position - 1; earlier >= 0; earlier--) {
      const shown = compared.findIndex((entry) => entry.position === earlier);
      if (shown !== -1) {
        at = shown + 1;
        break;
      }
    }
    compared.splice(at, 0, { item: { change: "removed", block }, position });
  });
  return compared.map(({ item }) => item);
}
