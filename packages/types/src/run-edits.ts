import { z } from "zod";

/** Most blocks one stored run's edits may name (a 10,000-block document, whole, twice over). */
const MAX_BLOCKS = 20_000;
const blockId = z.string().min(1).max(100);
const ids = z.array(blockId).max(MAX_BLOCKS);
/** A serialized Lexical block (its JSON); the editor parses it again before use. */
const serializedBlock = z.object({ type: z.string().min(1).max(100) }).loose();

/**
 * A run's edits as the server keeps them, so "Undo run" works after a reload and on another day:
 * the blocks the run inserted, deleted, changed or moved; each changed or deleted block as it was
 * before the run; each inserted or changed block as the run left it; and the document's block
 * order before the run (where deleted blocks go back) and after it.
 */
export const runEditsSchema = z.object({
  beforeOrder: ids,
  before: z.record(blockId, serializedBlock),
  after: z.record(blockId, serializedBlock),
  inserted: ids,
  deleted: ids,
  changed: ids,
  moved: ids,
  /** The document's block order after the run (where its inserted blocks sit); absent in older records. */
  afterOrder: ids.optional(),
});
export type RunEdits = z.infer<typeof runEditsSchema>;
