import { type BlockSuggestion, blockSuggestionSchema, type SuggestionDecision } from "@coauthor/types";
import {
  $addUpdateTag,
  $createParagraphNode,
  $getRoot,
  $getState,
  $parseSerializedNode,
  $setState,
  createState,
  type LexicalEditor,
  type LexicalNode,
  type SerializedLexicalNode,
} from "lexical";
import { applyAgentEdit } from "./agent-edit.ts";
import { $addBlockAuthor } from "./block-authors.ts";
import { $getBlockId } from "./block-id.ts";
import { $assignFreshBlockId, $claimBlockId } from "./block-index.ts";
import { serializedBlockId, stableIds } from "./suggestion-diff.ts";

// Suggestions live in the shared document: a top-level block carries its suggestion as NodeState
// ("suggestion"), which the Yjs binding syncs like its text, so every co-editor sees it live, and it
// survives reloads, offline editing and restarts. See docs/suggestions.md for the rules.

/** The suggestion a top-level block carries (null: none). Malformed state reads as none. */
export const blockSuggestionState = createState("suggestion", {
  parse: (value): BlockSuggestion | null => {
    const parsed = blockSuggestionSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  },
});

export function $getBlockSuggestion(node: LexicalNode): BlockSuggestion | null {
  return $getState(node, blockSuggestionState);
}

/** Marks `node` with `suggestion` (null: takes its mark away). */
export function $setBlockSuggestion<T extends LexicalNode>(node: T, suggestion: BlockSuggestion | null): T {
  return $setState(node, blockSuggestionState, suggestion);
}

/** Who proposes the suggestions a call makes, and why. */
export interface SuggestionAuthor {
  authorId: string;
  authorName: string;
  runId?: string;
  /** The comment thread the run answers, when it was asked there. */
  threadId?: string;
}

/** A fresh suggestion id. */
export function suggestionId(): string {
  return `s${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** Update tag on accepting or rejecting suggestions (a writer's Suggesting mode leaves it alone). */
export const SUGGESTION_DECISION_TAG = "coauthor-suggestion-decision";

/**
 * Lands the change from `before` to `after` (the top-level blocks of the editor's document as a
 * write tool found and left them) as suggestions, as one agent edit: a block the tool removed stays,
 * marked deleted; a block it added is inserted, marked inserted; a block it changed or moved stays
 * where it was, marked deleted, with the new one inserted where the tool put it, marked inserted —
 * both with one suggestion id, decided together. The new block keeps the block's id (the model's
 * later calls address it); the old one takes a fresh id. A block still pending as this author's
 * insertion is changed in place instead: editing your own pending insertion extends it.
 */
export function applySuggestedChanges(
  editor: LexicalEditor,
  before: SerializedLexicalNode[],
  after: SerializedLexicalNode[],
  author: SuggestionAuthor & { reason?: string },
): void {
  const stable = stableIds(before, after);
  const afterIds = new Set(after.map(serializedBlockId).filter((id): id is string => id !== null));
  const at = Date.now();
  const suggestion = (id: string, change: BlockSuggestion["change"]): BlockSuggestion => ({
    id,
    change,
    authorId: author.authorId,
    authorName: author.authorName,
    ...(author.runId ? { runId: author.runId } : {}),
    ...(author.reason ? { reason: author.reason } : {}),
    ...(author.threadId ? { threadId: author.threadId } : {}),
    at,
  });
  applyAgentEdit(editor, () => {
    const root = $getRoot();
    const live = new Map<string, LexicalNode>();
    for (const node of root.getChildren()) {
      const id = $getBlockId(node);
      if (id !== null) live.set(id, node);
    }
    // Suggestion ids of blocks that were changed or moved: the new block shares the old one's.
    const groupOf = new Map<string, string>();
    // The old block of each block that was changed or moved (now proposed for deletion), by id.
    const replaced = new Map<string, LexicalNode>();
    for (const node of before) {
      const id = serializedBlockId(node);
      if (id === null || stable.has(id)) continue;
      const liveNode = live.get(id);
      if (liveNode === undefined) continue;
      const pending = $getBlockSuggestion(liveNode);
      if (pending?.change === "inserted" && pending.authorId === author.authorId) {
        // Their own pending insertion: changed or removed in place, no deletion to review.
        groupOf.set(id, pending.id);
        liveNode.remove();
        continue;
      }
      if (pending?.change === "deleted") {
        // Already proposed for deletion: it stays so; a new version of it is a block of its own.
        if (afterIds.has(id)) $assignFreshBlockId(liveNode);
        continue;
      }
      const group = suggestionId();
      if (afterIds.has(id)) {
        groupOf.set(id, group);
        replaced.set(id, liveNode);
        $assignFreshBlockId(liveNode);
        $setBlockSuggestion(liveNode, { ...suggestion(group, "deleted"), restoreId: id });
      } else $setBlockSuggestion(liveNode, suggestion(group, "deleted"));
    }
    // The live node of the next unchanged block after each position of `after` (null: none).
    const nextStable: Array<LexicalNode | null> = new Array(after.length + 1).fill(null);
    for (let index = after.length - 1; index >= 0; index--) {
      const id = serializedBlockId(after[index] as SerializedLexicalNode);
      nextStable[index] =
        (id !== null && stable.has(id) ? live.get(id) : undefined) ?? nextStable[index + 1] ?? null;
    }
    // Positions among the blocks that were there (an index lookup per placement would make a run
    // touching every block quadratic); the cursor's is that of the last such block it passed.
    const position = new Map(root.getChildren().map((node, index) => [node.getKey(), index]));
    const indexOf = (node: LexicalNode) => position.get(node.getKey()) ?? -1;
    let cursor: LexicalNode | null = null;
    let cursorPosition = -1;
    after.forEach((node, index) => {
      const id = serializedBlockId(node);
      if (id !== null && stable.has(id)) {
        cursor = live.get(id) ?? cursor;
        if (cursor !== null) cursorPosition = indexOf(cursor);
        return;
      }
      const created = $setBlockSuggestion(
        $parseSerializedNode(node),
        suggestion((id !== null ? groupOf.get(id) : undefined) ?? suggestionId(), "inserted"),
      );
      // A replacement goes right after the old block it replaces when that is still ahead, before
      // the next unchanged block (a replacement reads old, new); a move or an insertion goes where
      // the tool put it.
      const old = id !== null ? replaced.get(id) : undefined;
      const anchor = nextStable[index + 1] ?? null;
      if (
        old !== undefined &&
        indexOf(old) > cursorPosition &&
        (anchor === null || indexOf(old) < indexOf(anchor))
      ) {
        cursor = old;
        cursorPosition = indexOf(old);
      }
      const at: LexicalNode | null = cursor;
      if (at !== null) at.insertAfter(created);
      else {
        const first = root.getFirstChild();
        if (first === null) root.append(created);
        else first.insertBefore(created);
      }
      cursor = created;
    });
    if (root.getChildrenSize() === 0) root.append($createParagraphNode());
  });
}

/** One pending suggestion as the review shows it: who, when, why, and the text it adds and removes. */
export interface PendingSuggestion {
  id: string;
  authorId: string;
  authorName: string;
  runId?: string;
  reason?: string;
  /** The comment thread that asked for it: accepting it resolves the thread. */
  threadId?: string;
  at: number;
  /** The text of the blocks it inserts, and of those it deletes (each block a line). */
  inserted: string;
  deleted: string;
  /** The id of its first block, to take the writer there. */
  firstBlockId: string | null;
  /**
   * The id the run's results named its first block by: a replaced block's old half goes by the id
   * its new half took (`restoreId`), which the model knows.
   */
  namedAs: string | null;
}

/** The pending suggestions in document order (by their first block). */
export function listSuggestions(editor: LexicalEditor): PendingSuggestion[] {
  return editor.read(() => {
    const byId = new Map<string, PendingSuggestion>();
    for (const node of $getRoot().getChildren()) {
      const suggestion = $getBlockSuggestion(node);
      if (suggestion === null) continue;
      let pending = byId.get(suggestion.id);
      if (pending === undefined) {
        pending = {
          id: suggestion.id,
          authorId: suggestion.authorId,
          authorName: suggestion.authorName,
          runId: suggestion.runId,
          reason: suggestion.reason,
          threadId: suggestion.threadId,
          at: suggestion.at,
          inserted: "",
          deleted: "",
          firstBlockId: $getBlockId(node),
          namedAs: (suggestion.change === "deleted" ? suggestion.restoreId : undefined) ?? $getBlockId(node),
        };
        byId.set(suggestion.id, pending);
      }
      const text = node.getTextContent();
      if (suggestion.change === "inserted") pending.inserted += pending.inserted ? `\n${text}` : text;
      else pending.deleted += pending.deleted ? `\n${text}` : text;
    }
    return [...byId.values()];
  });
}

/**
 * Accepts or rejects the suggestions `ids` inside the active update: accepting keeps inserted
 * blocks (the mark goes) and removes deleted ones; rejecting does the opposite. Deciding a
 * suggestion that is no longer there changes nothing (two people deciding it at once converge).
 * Returns how many blocks changed.
 */
export function $decideSuggestions(ids: ReadonlySet<string>, decision: SuggestionDecision): number {
  $addUpdateTag(SUGGESTION_DECISION_TAG);
  const root = $getRoot();
  let changed = 0;
  const staying: Array<{ node: LexicalNode; suggestion: BlockSuggestion }> = [];
  for (const node of root.getChildren()) {
    const suggestion = $getBlockSuggestion(node);
    if (suggestion === null || !ids.has(suggestion.id)) continue;
    const goes = (decision === "accept") === (suggestion.change === "deleted");
    if (goes) node.remove();
    else staying.push({ node, suggestion });
    changed += 1;
  }
  // After the removals: a rejected replacement's old block takes its id back from the new one; an
  // accepted block names who wrote it (provenance outlives the suggestion).
  for (const { node, suggestion } of staying) {
    $setBlockSuggestion(node, null);
    if (decision === "reject" && suggestion.restoreId !== undefined)
      $claimBlockId(node, suggestion.restoreId);
    if (decision === "accept") {
      const { authorId, authorName, runId } = suggestion;
      $addBlockAuthor(node, { authorId, authorName, ...(runId ? { runId } : {}) });
    }
  }
  if (root.getChildrenSize() === 0) root.append($createParagraphNode());
  return changed;
}
