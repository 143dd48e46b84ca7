import type { RunEdits } from "@coauthor/types";
import { type BlockInfo, blockInfoFromJson } from "../editor/block-info";

// What a run changed in the document, block by block, as History shows it: from the run's stored
// edits (the blocks it inserted, deleted, changed or moved, as they were before and after it).

/** One block the run touched, in document order. */
export type DiffBlock =
  | { id: string; change: "added"; after: BlockInfo }
  | { id: string; change: "removed"; before: BlockInfo }
  | { id: string; change: "changed" | "moved"; before: BlockInfo; after: BlockInfo };

/**
 * The document's order with the deleted blocks put back where they were (after the block that
 * preceded them before the run, or at the start). Older records have no after order: their
 * inserted blocks follow the rest.
 */
function mergedOrder(edits: RunEdits): string[] {
  const order = edits.afterOrder
    ? [...edits.afterOrder]
    : [...edits.beforeOrder.filter((id) => !edits.deleted.includes(id)), ...edits.inserted];
  const deleted = new Set(edits.deleted);
  edits.beforeOrder.forEach((id, index) => {
    if (!deleted.has(id) || order.includes(id)) return;
    const previous = index > 0 ? edits.beforeOrder[index - 1] : undefined;
    const at = previous === undefined ? 0 : order.indexOf(previous) + 1;
    order.splice(at, 0, id);
  });
  return order;
}

/** The blocks `edits` touched, in document order, each with its text before and after. */
export function runDiff(edits: RunEdits): DiffBlock[] {
  const inserted = new Set(edits.inserted);
  const deleted = new Set(edits.deleted);
  const changed = new Set(edits.changed);
  const moved = new Set(edits.moved);
  const blocks: DiffBlock[] = [];
  for (const id of mergedOrder(edits)) {
    const before = edits.before[id];
    const after = edits.after[id];
    if (inserted.has(id) && after) blocks.push({ id, change: "added", after: blockInfoFromJson(after) });
    else if (deleted.has(id) && before)
      blocks.push({ id, change: "removed", before: blockInfoFromJson(before) });
    else if ((changed.has(id) || moved.has(id)) && before && after)
      blocks.push({
        id,
        change: changed.has(id) ? "changed" : "moved",
        before: blockInfoFromJson(before),
        after: blockInfoFromJson(after),
      });
  }
  return blocks;
}
