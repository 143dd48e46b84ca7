import { $getBlockId, $getBlockType, blockKey } from "@coauthor/tools";
import type { RemovedRun } from "@coauthor/types";
import {
  $getNodeByKey,
  $getRoot,
  $isElementNode,
  $isRootNode,
  type EditorState,
  type LexicalNode,
  type NodeKey,
  type SerializedLexicalNode,
} from "lexical";

export type { RemovedRun };

// What one agent edit really changed, block by block. Lexical marks more nodes dirty than an edit
// changes: inserting a block dirties the sibling before it (its `next` pointer moved), removing
// one dirties both neighbours. So a dirty block only counts when its content differs from the
// state before the edit; removed blocks are found by comparing the root's children.

/** The top-level blocks an edit inserted or changed (in document order), and what it removed. */
export interface AgentEditChanges {
  changedIds: string[];
  removed: RemovedRun[];
}

/** The child of the root that holds `node` (getTopLevelElement stops at table cells, which are shadow roots). */
function $topBlock(node: LexicalNode): LexicalNode | null {
  let current: LexicalNode = node;
  for (let parent = current.getParent(); parent !== null; parent = current.getParent()) {
    if ($isRootNode(parent)) return current;
    current = parent;
  }
  return null;
}

/** The node and everything under it as JSON (what the document stores, without sibling pointers). */
function $serialize(node: LexicalNode): SerializedLexicalNode {
  const json = node.exportJSON();
  if (!$isElementNode(node)) return json;
  return { ...json, children: node.getChildren().map($serialize) } as SerializedLexicalNode;
}

/** Comparison key of the block with node key `key` in `state`, or null when it is not there. */
function contentKey(state: EditorState, key: NodeKey): string | null {
  return state.read(() => {
    const node = $getNodeByKey(key);
    return node === null || !node.isAttached() ? null : blockKey($serialize(node));
  });
}

interface TopBlock {
  key: NodeKey;
  id: string | null;
  type: string;
}

function topBlocks(state: EditorState): TopBlock[] {
  return state.read(() =>
    $getRoot()
      .getChildren()
      .map((block) => ({ key: block.getKey(), id: $getBlockId(block), type: $getBlockType(block) })),
  );
}

const NOUNS: Record<string, [string, string]> = {
  paragraph: ["paragraph", "paragraphs"],
  heading: ["heading", "headings"],
  list: ["list", "lists"],
  quote: ["quote", "quotes"],
  code: ["code block", "code blocks"],
  table: ["table", "tables"],
  rule: ["divider", "dividers"],
};

/** The noun family of a block type ("heading-2" → heading, "bullet-list" → list). */
const kindOf = (type: string) =>
  type.startsWith("heading-") ? "heading" : type.endsWith("-list") ? "list" : type;

/** "1 heading and 2 paragraphs removed": counts by kind, in the order the kinds first appear. */
export function removalLabel(types: string[]): string {
  const counts = new Map<string, number>();
  for (const type of types) {
    const kind = kindOf(type);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const parts = [...counts].map(([kind, count]) => {
    const [one, many] = NOUNS[kind] ?? ["block", "blocks"];
    return `${count} ${count === 1 ? one : many}`;
  });
  const joined = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return `${joined} removed`;
}

/** Runs of adjacent blocks in `before` that `after` no longer holds, with their surviving neighbours. */
function removedRuns(before: TopBlock[], after: TopBlock[]): RemovedRun[] {
  const surviving = new Set(after.map((block) => block.key));
  const runs: RemovedRun[] = [];
  let pending: string[] = [];
  let lastSurvivor: string | null = null;
  for (const block of before) {
    if (!surviving.has(block.key)) {
      pending.push(block.type);
      continue;
    }
    if (pending.length > 0)
      runs.push({ afterId: lastSurvivor, beforeId: block.id, label: removalLabel(pending) });
    pending = [];
    lastSurvivor = block.id;
  }
  if (pending.length > 0) runs.push({ afterId: lastSurvivor, beforeId: null, label: removalLabel(pending) });
  return runs;
}

/**
 * Blocks an update moved: present before and after with both neighbours (among the blocks present
 * in both) changed. A block next to a moved one has only one neighbour changed.
 */
function movedKeys(before: TopBlock[], after: TopBlock[]): Set<NodeKey> {
  const afterKeys = new Set(after.map((block) => block.key));
  const beforeKeys = new Set(before.map((block) => block.key));
  const neighbours = (order: NodeKey[]) =>
    new Map(order.map((key, index) => [key, `${order[index - 1] ?? ""}|${order[index + 1] ?? ""}`]));
  const sharedBefore = before.map((block) => block.key).filter((key) => afterKeys.has(key));
  const sharedAfter = after.map((block) => block.key).filter((key) => beforeKeys.has(key));
  const was = neighbours(sharedBefore);
  const is = neighbours(sharedAfter);
  const moved = new Set<NodeKey>();
  for (const [key, now] of is) {
    const [prevBefore, nextBefore] = (was.get(key) ?? "|").split("|");
    const [prevAfter, nextAfter] = now.split("|");
    if (prevBefore !== prevAfter && nextBefore !== nextAfter) moved.add(key);
  }
  return moved;
}

/**
 * The blocks one update from `before` to `after` changed, given the keys Lexical marked dirty
 * (any node; each counts for the top-level block that holds it).
 */
export function agentEditChanges(
  before: EditorState,
  after: EditorState,
  dirtyKeys: Iterable<NodeKey>,
  rootDirty: boolean,
): AgentEditChanges {
  const dirtyBlocks = after.read(() => {
    const keys = new Set<NodeKey>();
    for (const key of dirtyKeys) {
      const node = $getNodeByKey(key);
      const block = node === null || !node.isAttached() ? null : $topBlock(node);
      if (block !== null) keys.add(block.getKey());
    }
    return keys;
  });
  const afterBlocks = topBlocks(after);
  // Only an update that touched the root's children can have removed or moved a top-level block.
  const beforeBlocks = rootDirty ? topBlocks(before) : [];
  const moved = rootDirty ? movedKeys(beforeBlocks, afterBlocks) : new Set<NodeKey>();
  const changedIds = afterBlocks
    .filter(({ key, id }) => id !== null && dirtyBlocks.has(key))
    .filter(({ key }) => moved.has(key) || contentKey(before, key) !== contentKey(after, key))
    .map(({ id }) => id ?? "");
  const removed = rootDirty ? removedRuns(beforeBlocks, afterBlocks) : [];
  return { changedIds, removed };
}
