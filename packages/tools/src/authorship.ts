import type { BlockAuthor } from "@coauthor/types";
import type { ToolOutput } from "@coauthor/types/tools";
import {
  $getRoot,
  $hasUpdateTag,
  COLLABORATION_TAG,
  HISTORIC_TAG,
  HISTORY_MERGE_TAG,
  type LexicalEditor,
  RootNode,
  SKIP_COLLAB_TAG,
} from "lexical";
import { AGENT_EDIT_TAG } from "./agent-edit.ts";
import { $addBlockAuthor, $getBlockAuthors, sameAuthor } from "./block-authors.ts";
import { runEditorToolNow } from "./editor-tools.ts";
import { SUGGESTION_DECISION_TAG } from "./suggestions.ts";
import { $changedBlocks, $writtenBlocks } from "./written-blocks.ts";

// Keeping provenance (block-authors.ts) as people and the agent write: the agent's own edits name
// the run that made them, in the same update as the edit; a person who edits a block that already
// names its authors is added after them; accepting a suggestion names its author (suggestions.ts).
// A block nobody's edit named is the people's (the document's first text, typing before
// provenance existed).

/** Updates that are no one's new writing here: other copies', undo / redo, decisions. */
const NOT_WRITING = [
  COLLABORATION_TAG,
  HISTORIC_TAG,
  HISTORY_MERGE_TAG,
  SKIP_COLLAB_TAG,
  SUGGESTION_DECISION_TAG,
];

/** Who writes in an editor: the agent for one synchronous tool call (`runToolNowAs`), the page's writer. */
const writingAgent = new WeakMap<LexicalEditor, BlockAuthor>();
const writingPerson = new WeakMap<LexicalEditor, BlockAuthor>();
const keeping = new WeakSet<LexicalEditor>();

/** The transform that names authors, once per editor (it stays: it acts only while someone is set). */
function keepAuthorship(editor: LexicalEditor): void {
  if (keeping.has(editor)) return;
  keeping.add(editor);
  editor.registerNodeTransform(RootNode, () => {
    if (NOT_WRITING.some((tag) => $hasUpdateTag(tag))) return;
    if ($hasUpdateTag(AGENT_EDIT_TAG)) {
      const agent = writingAgent.get(editor);
      if (agent !== undefined) for (const block of $changedBlocks(editor)) $addBlockAuthor(block, agent);
      return;
    }
    const person = writingPerson.get(editor);
    if (person === undefined) return;
    // Only blocks that name authors: a person's keystroke elsewhere costs no comparison.
    const named = $writtenBlocks(editor).filter((block) => $getBlockAuthors(block).length > 0);
    for (const block of $changedBlocks(editor, named)) $addBlockAuthor(block, person);
  });
  // Registering marks every root dirty in an update of its own: committed now, so it is not
  // batched with (and does not take the place of) the first edit to be named.
  editor.read(() => undefined);
}

/**
 * Keeps provenance in `editor`: the blocks an agent edit writes name the run (`runToolNowAs`), and
 * with `person` (the page's writer), the blocks they edit that already name authors name them
 * too, until the returned function is called.
 */
export function registerAuthorship(editor: LexicalEditor, person?: BlockAuthor): () => void {
  keepAuthorship(editor);
  if (person === undefined) return () => undefined;
  writingPerson.set(editor, person);
  return () => {
    if (writingPerson.get(editor) === person) writingPerson.delete(editor);
  };
}

/**
 * Runs a tool call directly (as `runEditorToolNow`) with the blocks it writes named as `author`'s
 * in the same update; `editor` must keep provenance (`registerAuthorship`). Synchronous, so no
 * other run's edit can come in between and be named for this one.
 */
export function runToolNowAs(
  editor: LexicalEditor,
  toolName: string,
  input: unknown,
  author: BlockAuthor,
): ToolOutput {
  registerAuthorship(editor);
  writingAgent.set(editor, author);
  try {
    return runEditorToolNow(editor, toolName, input);
  } finally {
    writingAgent.delete(editor);
  }
}

/** Every author named in the document, in the order they first appear. */
export function documentAuthors(editor: LexicalEditor): BlockAuthor[] {
  return editor.read(() => {
    const found: BlockAuthor[] = [];
    for (const block of $getRoot().getChildren()) {
      for (const author of $getBlockAuthors(block))
        if (!found.some((known) => sameAuthor(known, author))) found.push(author);
    }
    return found;
  });
}
