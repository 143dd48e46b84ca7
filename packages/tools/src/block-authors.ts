import { type BlockAuthor, blockAuthorsSchema, MAX_BLOCK_AUTHORS } from "@coauthor/types";
import { $getState, $setState, createState, type LexicalNode } from "lexical";

// Provenance: who wrote a top-level block, kept in the shared document as its NodeState
// "writtenBy" (synced like its text), so it outlives acceptance, reloads and restarts. Who adds
// authors: authorship.ts (the agent's own edits, people editing such blocks) and accepting a
// suggestion (suggestions.ts). Unit: the block, as for suggestions.

export const blockAuthorsState = createState("writtenBy", {
  parse: (value): BlockAuthor[] => blockAuthorsSchema.safeParse(value).data ?? [],
});

/** Who wrote `node`, oldest first (empty: nobody's edit named an author). */
export function $getBlockAuthors(node: LexicalNode): BlockAuthor[] {
  return $getState(node, blockAuthorsState);
}

/** The same person, or the same run of the agent. */
export const sameAuthor = (a: BlockAuthor, b: BlockAuthor) =>
  a.authorId === b.authorId && a.runId === b.runId;

/**
 * Names `author` among `node`'s authors, last. Already the last one: nothing changes (a person's
 * keystrokes in their own block write nothing more). Beyond MAX_BLOCK_AUTHORS, the oldest after the
 * first goes.
 */
export function $addBlockAuthor(node: LexicalNode, author: BlockAuthor): void {
  const authors = $getBlockAuthors(node);
  const last = authors.at(-1);
  if (last !== undefined && sameAuthor(last, author)) return;
  const others = authors.filter((known) => !sameAuthor(known, author));
  const next = [...others, author];
  const kept = next.length > MAX_BLOCK_AUTHORS ? [next[0], ...next.slice(-(MAX_BLOCK_AUTHORS - 1))] : next;
  $setState(node, blockAuthorsState, kept as BlockAuthor[]);
}
