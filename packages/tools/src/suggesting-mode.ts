import type { BlockSuggestion } from "@coauthor/types";
import {
  $getNodeByKey,
  $getRoot,
  $hasUpdateTag,
  $isParagraphNode,
  $isRootNode,
  $parseSerializedNode,
  COLLABORATION_TAG,
  type EditorState,
  HISTORIC_TAG,
  HISTORY_MERGE_TAG,
  type LexicalEditor,
  type LexicalNode,
  RootNode,
  type SerializedLexicalNode,
  SKIP_COLLAB_TAG,
} from "lexical";
import { AGENT_EDIT_TAG } from "./agent-edit.ts";
import { $getBlockId } from "./block-id.ts";
import { $assignFreshBlockId, $findBlockById } from "./block-index.ts";
import { sameBlockContent } from "./suggestion-diff.ts";
import {
  $getBlockSuggestion,
  $setBlockSuggestion,
  SUGGESTION_DECISION_TAG,
  type SuggestionAuthor,
  suggestionId,
} from "./suggestions.ts";
import { $exportBlock, $writtenBlocks } from "./written-blocks.ts";

// A writer's Suggesting mode (as in Google Docs): their own typing, deletions, formatting and
// block changes land as suggestions authored by them, in the same update as the edit (a root
// transform, Lexical's "update finalizer"), so no copy ever sees the direct edit. The unit is the
// top-level block, as for the agent's suggestions (suggestions.ts): a changed block becomes its
// old version, marked deleted, followed by the new one, marked inserted; a new block is inserted;
// a removed block stays, marked deleted. Rules (docs/suggestions.md):
// - typing in your own pending insertion extends it;
// - changing your own pending deletion makes it a replacement (decided together), unless it is
//   already the old half of one (then it is refused, as below: change the new half instead);
// - removing your own pending insertion takes the suggestion away;
// - changing or removing another author's pending suggestion is refused: the block is put back as
//   it was and `onRefused` is told (the editor shows a hint);
// - another copy's edits, undo / redo, the agent's edits and decisions are never re-wrapped.

/** Updates Suggesting mode leaves as they are (none of them is the writer's own new edit). */
const NOT_THE_WRITERS = [
  COLLABORATION_TAG,
  HISTORIC_TAG,
  HISTORY_MERGE_TAG,
  SKIP_COLLAB_TAG,
  AGENT_EDIT_TAG,
  SUGGESTION_DECISION_TAG,
];

export interface SuggestingModeOptions {
  /** Called (inside the update) when an edit was refused, with the pending suggestion it would have changed. */
  onRefused?: (suggestion: BlockSuggestion) => void;
}

/**
 * Turns every edit the writer makes in `editor` into suggestions authored by `author`, until the
 * returned function is called.
 */
export function registerSuggestingMode(
  editor: LexicalEditor,
  author: SuggestionAuthor,
  options: SuggestingModeOptions = {},
): () => void {
  return editor.registerNodeTransform(RootNode, () => {
    if (NOT_THE_WRITERS.some((tag) => $hasUpdateTag(tag))) return;
    $suggestInsteadOfEditing(editor.getEditorState(), editor, author, options);
  });
}

/** True when `suggestion` (a pending deletion) has its inserted half in the document: a replacement. */
function $hasNewHalf(suggestion: BlockSuggestion): boolean {
  if (suggestion.change !== "deleted") return false;
  return $getRoot()
    .getChildren()
    .some((node) => {
      const other = $getBlockSuggestion(node);
      return other?.id === suggestion.id && other.change === "inserted";
    });
}

/** A block of the document before this update, read from that state. */
interface Before {
  suggestion: BlockSuggestion | null;
  json: SerializedLexicalNode;
  empty: boolean;
}

function readBefore(previous: EditorState, editor: LexicalEditor, node: LexicalNode): Before {
  return previous.read(
    () => ({
      suggestion: $getBlockSuggestion(node),
      json: $exportBlock(node),
      empty: $isParagraphNode(node) && node.getTextContentSize() === 0,
    }),
    { editor },
  );
}

function $suggestInsteadOfEditing(
  previous: EditorState,
  editor: LexicalEditor,
  author: SuggestionAuthor,
  options: SuggestingModeOptions,
): void {
  const at = Date.now();
  const mark = (node: LexicalNode, id: string, change: BlockSuggestion["change"], restoreId?: string) =>
    $setBlockSuggestion(node, {
      id,
      change,
      authorId: author.authorId,
      authorName: author.authorName,
      ...(restoreId ? { restoreId } : {}),
      at,
    });
  const mine = (suggestion: BlockSuggestion | null) => suggestion?.authorId === author.authorId;
  const root = $getRoot();
  // Blocks before this update by id, read only when a block is new (a block type change puts a
  // new node in the old one's place, with its id).
  let beforeById: Map<string, LexicalNode> | null = null;
  const previousById = (id: string): LexicalNode | undefined => {
    beforeById ??= previous.read(
      () =>
        new Map(
          $getRoot()
            .getChildren()
            .flatMap((node) => ($getBlockId(node) ? [[$getBlockId(node) as string, node]] : [])),
        ),
    );
    return beforeById.get(id);
  };

  for (const node of $writtenBlocks(editor)) {
    const suggestion = $getBlockSuggestion(node);
    // Your own pending insertion: typing in it extends it.
    if (suggestion?.change === "inserted" && mine(suggestion)) continue;
    const id = $getBlockId(node);
    const oldNode = previous._nodeMap.get(node.getKey()) ?? (id !== null ? previousById(id) : undefined);
    if (oldNode === undefined) {
      // New this update: the writer's new block, or a block this mode put back (it has its mark).
      if (suggestion === null) mark(node, suggestionId(), "inserted");
      continue;
    }
    const old = readBefore(previous, editor, oldNode);
    if (sameBlockContent(old.json, $exportBlock(node))) continue;
    if (old.suggestion !== null && (!mine(old.suggestion) || $hasNewHalf(old.suggestion))) {
      // Another author's pending suggestion is theirs to change, and the old half of a replacement
      // is what the replacement removes: put the block back.
      node.replace($parseSerializedNode(old.json)).selectEnd();
      options.onRefused?.(old.suggestion);
      continue;
    }
    if (old.suggestion === null && old.empty) {
      // Writing in an empty paragraph: nothing to review as removed.
      mark(node, suggestionId(), "inserted");
      continue;
    }
    // The old version stays before it, marked deleted, with a fresh id (the new version keeps the
    // block's id); both share one suggestion id. Your own pending deletion becomes a replacement.
    const group = old.suggestion?.id ?? suggestionId();
    const oldCopy = $parseSerializedNode(old.json);
    node.insertBefore(oldCopy);
    $assignFreshBlockId(oldCopy);
    mark(oldCopy, group, "deleted", old.suggestion?.restoreId ?? id ?? undefined);
    mark(node, group, "inserted");
  }

  // Blocks removed this update stay, marked deleted, where they were. Removing a node writes it, so
  // only written nodes can be blocks that were top-level before and are not now.
  const beforeNode = (key: string | null) => (key === null ? undefined : previous._nodeMap.get(key));
  const removed = new Set<string>();
  for (const key of editor._cloneNotNeeded.keys()) {
    if (beforeNode(key)?.__parent !== "root") continue;
    const now = $getNodeByKey(key);
    if (now === null || !$isRootNode(now.getParent())) removed.add(key);
  }
  /** The block now standing for `key` of the state before: itself, or the block that took its id. */
  const $standingFor = (key: string): LexicalNode | null => {
    const now = $getNodeByKey(key);
    if (now !== null && $isRootNode(now.getParent())) return now;
    const old = beforeNode(key);
    const id = old === undefined ? null : previous.read(() => $getBlockId(old));
    const holder = id === null ? null : $findBlockById(id);
    return holder !== null && $isRootNode(holder.getParent()) ? holder : null;
  };
  const putBack = new Set<string>();
  for (const key of removed) {
    if (putBack.has(key)) continue;
    // The run of removed blocks this one is in, from its start, after the block before it.
    let start = key;
    for (let prev = beforeNode(start)?.__prev ?? null; prev !== null && removed.has(prev); ) {
      start = prev;
      prev = beforeNode(prev)?.__prev ?? null;
    }
    let anchor: LexicalNode | null = null;
    for (let prev = beforeNode(start)?.__prev ?? null; prev !== null && anchor === null; ) {
      anchor = $standingFor(prev);
      prev = beforeNode(prev)?.__prev ?? null;
    }
    for (let at: string | null = start; at !== null && removed.has(at); at = beforeNode(at)?.__next ?? null) {
      putBack.add(at);
      const standing = $standingFor(at);
      if (standing !== null) {
        // Its id lives on in a block that took its place (a block type change): paired above.
        anchor = standing;
        continue;
      }
      const old = readBefore(previous, editor, beforeNode(at) as LexicalNode);
      // Your own pending insertion, removed: the suggestion goes with it; so does an empty paragraph.
      if (old.suggestion?.change === "inserted" && mine(old.suggestion)) continue;
      if (old.suggestion === null && old.empty) continue;
      const copy = $parseSerializedNode(old.json);
      if (anchor === null) {
        const first = root.getFirstChild();
        if (first === null) root.append(copy);
        else first.insertBefore(copy);
      } else anchor.insertAfter(copy);
      anchor = copy;
      if (old.suggestion === null) mark(copy, suggestionId(), "deleted");
      else if (!mine(old.suggestion)) options.onRefused?.(old.suggestion);
    }
  }
}
