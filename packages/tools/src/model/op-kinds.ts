import type { Op } from "./operations.ts";

// Which ops mean to remove what: the model lets text and block ids disappear only through ops that
// may remove them (facts.ts), and treats a shared type deleted by any other op as a hazard
// (hazards.ts).

/** Op kinds that may remove text they see on their own copy. */
export const REMOVES_TEXT: ReadonlySet<Op["kind"]> = new Set([
  "delete",
  "undo",
  "redo",
  "replaceBlock",
  "replaceText",
  "deleteBlocks",
]);

/**
 * Op kinds that may remove a block id they see: deleting or replacing the block, joining it to the
 * one before, changing a list's type (its items become blocks), moving a list's last item out of
 * it; and Enter or a paste at the start of a block, where Lexical splits the block and its text
 * goes on in the new half, with a new id, while the old id stays on an empty block or goes.
 */
export const REMOVES_BLOCKS: ReadonlySet<Op["kind"]> = new Set([
  "delete",
  "merge",
  "enter",
  "paste",
  "undo",
  "redo",
  "deleteBlocks",
  "replaceBlock",
  "setBlockType",
  "moveBlock",
]);

/** Op kinds whose deletion of a whole block means to drop what another copy writes into it concurrently. */
export const REMOVES_CONCURRENT: ReadonlySet<Op["kind"]> = new Set([
  "delete",
  "merge",
  "undo",
  "redo",
  "deleteBlocks",
  "replaceBlock",
]);
