import { $getRoot, type LexicalNode, type NodeKey, type RootNode } from "lexical";

/** The top-level blocks of one committed document, in order. */
export type BlockOrder = {
  keys: readonly NodeKey[];
  /** Position of each top-level block's key in `keys`. */
  positions: ReadonlyMap<NodeKey, number>;
};

/**
 * Orders keyed by root node. Lexical clones the root (a new object) in any update that adds,
 * removes or moves one of its children, so a committed root object stands for exactly one order
 * of top-level blocks; the order is computed once per root object, on first use.
 */
const orders = new WeakMap<RootNode, BlockOrder>();

/** The order of the top-level blocks; call it inside a read of a committed state, never inside an update. */
export function $topLevelOrder(): BlockOrder {
  const root = $getRoot();
  let order = orders.get(root);
  if (order === undefined) {
    const keys: NodeKey[] = [];
    const positions = new Map<NodeKey, number>();
    for (let block = root.getFirstChild(); block !== null; block = block.getNextSibling()) {
      positions.set(block.getKey(), keys.length);
      keys.push(block.getKey());
    }
    order = { keys, positions };
    orders.set(root, order);
  }
  return order;
}

/** Index of the top-level `block` among the root's children (as `getIndexWithinParent`), from the cached order. */
export function $topLevelIndex(block: LexicalNode): number {
  const position = $topLevelOrder().positions.get(block.getKey());
  return position ?? block.getIndexWithinParent();
}
