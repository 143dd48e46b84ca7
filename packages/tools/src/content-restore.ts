import {
  $getRoot,
  $parseSerializedNode,
  type LexicalEditor,
  type LexicalNode,
  type SerializedEditorState,
  type SerializedLexicalNode,
} from "lexical";
import { flush } from "./yjs-document.ts";

// Restoring a version as a forward change: the live document is made equal to the version by an
// ordinary edit, so every copy (an offline one too, when it reconnects) converges on it — replacing
// the stored state instead would be undone by the first copy that syncs its older state back.

/** A serialized block's id (NodeState is serialized under "$"), or null. */
function blockIdOf(node: SerializedLexicalNode): string | null {
  const state = (node as { $?: { blockId?: unknown } }).$;
  return typeof state?.blockId === "string" ? state.blockId : null;
}

/** What a restore did to the top-level blocks. */
export interface RestoreSummary {
  /** Blocks the version and the document held alike: left where they are, untouched. */
  kept: number;
  /** Blocks written from the version (changed since, or gone since). */
  written: number;
  /** Blocks the document held that the version does not: removed. */
  removed: number;
}

/**
 * Makes `editor`'s document (an editor bound to a copy of the live document) equal to `target`,
 * block by block, as one update: a top-level block that is the same in both (same id, same
 * content) stays the very node it is, so a co-editor typing in it merges; one that differs or is
 * missing is written from the version (with the version's id); one the version lacks is removed.
 */
export function restoreContent(editor: LexicalEditor, target: SerializedEditorState): RestoreSummary {
  const liveBlocks = editor.getEditorState().toJSON().root.children;
  const liveJson = new Map<string, string>();
  for (const block of liveBlocks) {
    const id = blockIdOf(block);
    if (id !== null) liveJson.set(id, JSON.stringify(block));
  }
  const summary: RestoreSummary = { kept: 0, written: 0, removed: 0 };
  editor.update(
    () => {
      const root = $getRoot();
      const liveNodes = root.getChildren();
      const liveById = new Map<string, LexicalNode>();
      liveBlocks.forEach((block, index) => {
        const id = blockIdOf(block);
        const node = liveNodes[index];
        if (id !== null && node !== undefined) liveById.set(id, node);
      });
      // The version's blocks in order: the live node where it is unchanged, else a new one.
      const wanted = target.root.children.map((block) => {
        const id = blockIdOf(block);
        const same = id !== null && liveJson.get(id) === JSON.stringify(block) ? liveById.get(id) : undefined;
        return same ?? $parseSerializedNode(block);
      });
      const keptKeys = new Set(wanted.map((node) => node.getKey()));
      for (const node of liveNodes) {
        if (!keptKeys.has(node.getKey())) {
          node.remove();
          summary.removed += 1;
        }
      }
      // Place them: a kept node already right after the previous one stays put (no move: a move is
      // a delete and an insert in the Yjs binding, which would drop a co-editor's keystrokes).
      let previous: LexicalNode | null = null;
      for (const node of wanted) {
        const isKept = node.isAttached();
        const inPlace = isKept && node.getPreviousSibling()?.getKey() === previous?.getKey();
        if (!inPlace) {
          if (previous === null) {
            const first = root.getFirstChild();
            if (first === null) root.append(node);
            else first.insertBefore(node);
          } else previous.insertAfter(node);
        }
        if (isKept) summary.kept += 1;
        else summary.written += 1;
        previous = node;
      }
    },
    { discrete: true },
  );
  flush(editor);
  return summary;
}
