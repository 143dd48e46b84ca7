import { $isListItemNode, $isListNode } from "@lexical/list";
import {
  $getRoot,
  $getState,
  $isRootNode,
  $setState,
  createState,
  type ElementNode,
  type LexicalNode,
} from "lexical";

/**
 * Stable id of an addressable block (a top-level block or a list item), stored as NodeState so it
 * is serialized with the node JSON (Lexical's runtime node keys do not survive save/load).
 * `resetOnCopyNode` makes a node copied by a split (Enter in the middle of a block) start
 * without the id of the block it came from.
 */
export const blockIdState = createState("blockId", {
  parse: (value) => (typeof value === "string" ? value : ""),
  resetOnCopyNode: true,
});

const ID_LENGTH = 8;

/** A fresh block id: "b" followed by 8 random base-36 characters. */
export function createBlockId(): string {
  let id = "b";
  while (id.length <= ID_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(ID_LENGTH))) {
      // 252 = 7 * 36: dropping the top bytes keeps every character equally likely.
      if (byte < 252 && id.length <= ID_LENGTH) id += (byte % 36).toString(36);
    }
  }
  return id;
}

/** A fresh block id for which `isTaken` is false. */
export function createUniqueBlockId(isTaken: (id: string) => boolean): string {
  let id = createBlockId();
  while (isTaken(id)) id = createBlockId();
  return id;
}

/** The block id stored on `node`, or null when it has none. */
export function $getBlockId(node: LexicalNode): string | null {
  return $getState(node, blockIdState) || null;
}

/** Stores `id` as the block id of `node`. */
export function $setBlockId<T extends LexicalNode>(node: T, id: string): T {
  return $setState(node, blockIdState, id);
}

/** True for nodes that carry a block id: children of the root and list items. */
export function $isAddressable(node: LexicalNode): boolean {
  return $isListItemNode(node) || $isRootNode(node.getParent());
}

/** Calls `visit` on every addressable node in document order (top-level blocks and list items). */
export function $forEachAddressable(visit: (node: LexicalNode) => void): void {
  const visitList = (list: ElementNode): void => {
    for (let item = list.getFirstChild(); item !== null; item = item.getNextSibling()) {
      visit(item);
      if ($isListItemNode(item)) {
        for (let child = item.getFirstChild(); child !== null; child = child.getNextSibling()) {
          if ($isListNode(child)) visitList(child);
        }
      }
    }
  };
  for (let block = $getRoot().getFirstChild(); block !== null; block = block.getNextSibling()) {
    visit(block);
    if ($isListNode(block)) visitList(block);
  }
}

/** The addressable nodes that lack an id or repeat an earlier node's id, plus every id in use. */
export function $findIdProblems(): { needsId: LexicalNode[]; ids: Map<string, LexicalNode> } {
  const ids = new Map<string, LexicalNode>();
  const needsId: LexicalNode[] = [];
  $forEachAddressable((node) => {
    const id = $getBlockId(node);
    if (id === null || ids.has(id)) needsId.push(node);
    else ids.set(id, node);
  });
  return { needsId, ids };
}

/** Gives every addressable node without an id, or with a duplicate of an earlier node's id, a fresh id. */
export function $ensureBlockIds(): void {
  const { needsId, ids } = $findIdProblems();
  for (const node of needsId) {
    const fresh = createUniqueBlockId((id) => ids.has(id));
    ids.set(fresh, node);
    $setBlockId(node, fresh);
  }
}
