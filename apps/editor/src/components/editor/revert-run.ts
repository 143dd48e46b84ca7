import { $getBlockId, type RunChanges, snapshotBlocks } from "@coauthor/tools";
import {
  $createParagraphNode,
  $getRoot,
  $parseSerializedNode,
  HISTORY_PUSH_TAG,
  type LexicalEditor,
  type LexicalNode,
} from "lexical";

// "Undo run": the reverse of a run's block diff, applied to the CURRENT document in one update,
// so edits the writer made elsewhere after the run survive. Rule for conflicts: the writer wins.
// A block the run inserted or changed is reverted only while it is still exactly as the run left
// it; once the writer has edited (or deleted) it, it stays as the writer made it. Blocks the run
// deleted come back after their nearest pre-run predecessor still in the document (at the start
// when there is none); blocks the run moved go back after that predecessor as well.

/** How an undo went: blocks put back as they were, and blocks left alone because the writer changed them. */
export interface RevertReport {
  reverted: number;
  keptByWriter: number;
}

/** The top-level blocks of the update in progress, by id, kept current as blocks come and go. */
function $topLevelBlocks(): Map<string, LexicalNode> {
  const blocks = new Map<string, LexicalNode>();
  for (const child of $getRoot().getChildren()) {
    const id = $getBlockId(child);
    if (id !== null && !blocks.has(id)) blocks.set(id, child);
  }
  return blocks;
}

/** Puts `node` right after the nearest block before `id` in the pre-run order that is still in the document. */
function $placeAfterPredecessor(
  node: LexicalNode,
  id: string,
  changes: RunChanges,
  blocks: Map<string, LexicalNode>,
): void {
  const order = changes.before.order;
  for (let index = order.indexOf(id) - 1; index >= 0; index--) {
    const previous = blocks.get(order[index] ?? "");
    if (previous !== undefined && previous !== node) {
      if (!previous.is(node.getPreviousSibling())) previous.insertAfter(node);
      return;
    }
  }
  const first = $getRoot().getFirstChild();
  if (first === null) $getRoot().append(node);
  else if (!first.is(node)) first.insertBefore(node);
}

/** Reverts the run's changes that the writer has not touched since, as one undoable update. */
export function revertRunChanges(editor: LexicalEditor, changes: RunChanges): RevertReport {
  const current = snapshotBlocks(editor.getEditorState());
  const untouched = (id: string) => current.keys.get(id) === changes.after.keys.get(id);
  const report: RevertReport = { reverted: 0, keptByWriter: 0 };
  editor.update(
    () => {
      // Our own lookup: nodes re-created below must be found within this same update.
      const blocks = $topLevelBlocks();
      for (const id of changes.inserted) {
        const node = blocks.get(id);
        if (node === undefined) continue;
        if (untouched(id)) {
          node.remove();
          blocks.delete(id);
          report.reverted++;
        } else report.keptByWriter++;
      }
      for (const id of changes.changed) {
        const node = blocks.get(id);
        const json = changes.before.json.get(id);
        if (node === undefined || json === undefined) continue;
        if (untouched(id)) {
          blocks.set(id, node.replace($parseSerializedNode(json)));
          report.reverted++;
        } else report.keptByWriter++;
      }
      // In pre-run order, so a run of deleted blocks comes back in order behind its first block.
      for (const id of changes.before.order) {
        const json = changes.before.json.get(id);
        const node = blocks.get(id);
        if (json !== undefined && node === undefined && changes.deleted.includes(id)) {
          const restored = $parseSerializedNode(json);
          blocks.set(id, restored);
          $placeAfterPredecessor(restored, id, changes, blocks);
          report.reverted++;
        } else if (node !== undefined && changes.moved.includes(id)) {
          $placeAfterPredecessor(node, id, changes, blocks);
        }
      }
      if ($getRoot().getChildrenSize() === 0) $getRoot().append($createParagraphNode());
    },
    { tag: HISTORY_PUSH_TAG, discrete: true },
  );
  return report;
}
