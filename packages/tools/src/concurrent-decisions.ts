import type { SuggestionDecision } from "@coauthor/types";
import {
  $getNodeByKey,
  $getRoot,
  $parseSerializedNode,
  type LexicalEditor,
  type LexicalNode,
  type NodeKey,
  type SerializedLexicalNode,
} from "lexical";
import type * as Y from "yjs";
import { $getBlockId } from "./block-id.ts";
import { serializedBlockId } from "./suggestion-diff.ts";
import { $decideSuggestions, $getBlockSuggestion } from "./suggestions.ts";
import { $exportBlock } from "./written-blocks.ts";
import { SUGGESTION_DECISIONS_ROOT_NAME } from "./yjs-document.ts";

// Two people deciding one suggestion the opposite way at the same moment: accepting removes the
// old half of a replacement, rejecting removes the new half, and once both edits merge both
// halves are gone — the paragraph with them. So every decision is also written to a shared map
// (suggestion id → decision), where concurrent writes settle on one value in every copy. The copy
// whose decision lost learns it when the winning value arrives, and puts back what its own
// decision removed, decided the winner's way: the document ends as the winning decision alone
// would leave it. The loser repairs because only it holds what it removed.
//
// Limits (docs/suggestions.md): a copy closed before the winner's decision reaches it cannot
// repair; three or more copies deciding one suggestion at once may each put the blocks back.

/** How long a copy waits to learn whether its decision stood, and how long the map keeps one. */
const KEEP_MS = 24 * 60 * 60_000;
/** The most decisions a copy keeps waiting (the oldest go first). */
const MAX_WAITING = 1_000;

interface StoredDecision {
  decision: SuggestionDecision;
  /** When it was made (ms since the epoch). */
  at: number;
  /** This decision's own random id. */
  token: string;
  /** The token of the decision its copy had seen on the suggestion, if any: it came after that one. */
  seen?: string;
}

/** A decision this copy made, with what it removed, kept until it is known to have stood. */
interface OwnDecision extends StoredDecision {
  /** The blocks the decision removed, as they were. */
  removed: SerializedLexicalNode[];
  /** The keys of the blocks it kept (in this copy's editor): a winning opposite decision removes them. */
  kept: NodeKey[];
  /** The ids of the nearest blocks before and after the suggestion that were not part of it. */
  before: string | null;
  after: string | null;
  /** Its place among the suggestions decided at once (document order), to put them back in order. */
  order: number;
}

function storedDecision(value: unknown): StoredDecision | null {
  if (typeof value !== "object" || value === null) return null;
  const { decision, at, token, seen } = value as Partial<StoredDecision>;
  if ((decision !== "accept" && decision !== "reject") || typeof at !== "number" || typeof token !== "string")
    return null;
  return { decision, at, token, ...(typeof seen === "string" ? { seen } : {}) };
}

/**
 * The id of the nearest sibling of `node` in `direction` that is not part of the suggestion `id`
 * (a neighbouring suggestion's block keeps its id whichever way it is decided: the new half has it,
 * and a rejected old half takes it back).
 */
function $neighbourOutside(node: LexicalNode, id: string, direction: "before" | "after"): string | null {
  let sibling = direction === "before" ? node.getPreviousSibling() : node.getNextSibling();
  while (sibling !== null) {
    const suggestion = $getBlockSuggestion(sibling);
    if (suggestion?.id !== id)
      return (suggestion?.change === "deleted" ? suggestion.restoreId : undefined) ?? $getBlockId(sibling);
    sibling = direction === "before" ? sibling.getPreviousSibling() : sibling.getNextSibling();
  }
  return null;
}

/** For each of the suggestions `ids`, the blocks `decision` is about to remove, and where they stand. */
function $blocksGoing(
  ids: ReadonlySet<string>,
  decision: SuggestionDecision,
): Map<string, Pick<OwnDecision, "removed" | "kept" | "before" | "after" | "order">> {
  const going = new Map<string, Pick<OwnDecision, "removed" | "kept" | "before" | "after" | "order">>();
  for (const node of $getRoot().getChildren()) {
    const suggestion = $getBlockSuggestion(node);
    if (suggestion === null || !ids.has(suggestion.id)) continue;
    let entry = going.get(suggestion.id);
    if (entry === undefined) {
      entry = {
        removed: [],
        kept: [],
        before: $neighbourOutside(node, suggestion.id, "before"),
        after: null,
        order: going.size,
      };
      going.set(suggestion.id, entry);
    }
    entry.after = $neighbourOutside(node, suggestion.id, "after");
    if ((decision === "accept") === (suggestion.change === "deleted")) entry.removed.push($exportBlock(node));
    else entry.kept.push(node.getKey());
  }
  return going;
}

/**
 * Undoes `own` in favour of another copy's `winner` decision: takes away the blocks it kept (the
 * winner's edit removes them too, now or when it arrives), puts back the blocks it removed — after
 * the block that stood before them, else before the one after them, else at the end — and decides
 * them the winner's way. A block whose id is already in the document is not put back twice.
 */
function $putBack(suggestionId: string, own: OwnDecision, winner: SuggestionDecision): void {
  for (const key of own.kept) $getNodeByKey(key)?.remove();
  const root = $getRoot();
  const byId = new Map<string, LexicalNode>();
  for (const node of root.getChildren()) {
    const id = $getBlockId(node);
    if (id !== null) byId.set(id, node);
  }
  const missing = own.removed.filter((json) => {
    const id = serializedBlockId(json);
    return id === null || !byId.has(id);
  });
  if (missing.length === 0) return;
  const nodes = missing.map((json) => $parseSerializedNode(json));
  const before = own.before === null ? undefined : byId.get(own.before);
  const after = own.after === null ? undefined : byId.get(own.after);
  let previous: LexicalNode | null = null;
  for (const node of nodes) {
    if (previous !== null) previous.insertAfter(node);
    else if (before !== undefined) before.insertAfter(node);
    else if (after !== undefined) after.insertBefore(node);
    else root.append(node);
    previous = node;
  }
  $decideSuggestions(new Set([suggestionId]), winner);
}

/**
 * Deciding suggestions in `editor` (bound to `doc`) so that an opposite decision made at the same
 * moment in another copy never costs both halves: `decide` makes the decision as one edit and
 * notes it in the shared map; when another copy's decision on one of them wins there, this copy
 * puts back what its own removed, decided the winner's way.
 */
export function registerConcurrentDecisions(
  editor: LexicalEditor,
  doc: Y.Doc,
): { decide: (ids: ReadonlySet<string>, decision: SuggestionDecision) => void; dispose: () => void } {
  const decisions = doc.getMap<unknown>(SUGGESTION_DECISIONS_ROOT_NAME);
  const waiting = new Map<string, OwnDecision>();

  const decide = (ids: ReadonlySet<string>, decision: SuggestionDecision) => {
    if (ids.size === 0) return;
    const at = Date.now();
    const token = crypto.randomUUID();
    // Whatever is pending commits first, so this edit is not merged into another's update, and
    // this one commits now: the binding writes it to the Yjs document before the map below is
    // written, so a copy that sees the decision in the map has its edit too.
    editor.read(() => undefined);
    editor.update(
      () => {
        for (const [id, going] of $blocksGoing(ids, decision)) {
          waiting.delete(id);
          waiting.set(id, { decision, at, token, ...going });
        }
        $decideSuggestions(ids, decision);
      },
      { discrete: true },
    );
    for (const [id, own] of waiting)
      if (waiting.size > MAX_WAITING || at - own.at > KEEP_MS) waiting.delete(id);
    doc.transact(() => {
      for (const [id, value] of decisions.entries()) {
        const stored = storedDecision(value);
        if (stored === null || at - stored.at > KEEP_MS) decisions.delete(id);
      }
      for (const id of ids) {
        const seen = storedDecision(decisions.get(id))?.token;
        decisions.set(id, { decision, at, token, ...(seen ? { seen } : {}) } satisfies StoredDecision);
      }
    });
  };

  const onDecisions = (event: Y.YMapEvent<unknown>, transaction: Y.Transaction) => {
    if (transaction.local) return;
    const lost: Array<{ id: string; own: OwnDecision; winner: SuggestionDecision }> = [];
    for (const id of event.keysChanged) {
      const own = waiting.get(id);
      if (own === undefined) continue;
      const now = storedDecision(decisions.get(id));
      if (now?.token === own.token) continue;
      waiting.delete(id);
      // Lost to an opposite decision made without knowing this one (one made after seeing it —
      // on the suggestion brought back by an undo — is a decision of its own, not a conflict).
      if (now !== null && now.decision !== own.decision && now.seen !== own.token)
        lost.push({ id, own, winner: now.decision });
    }
    // After the whole transaction, and after the editor has committed the binding's update of it:
    // what to put back depends on what the winner's edit left, and an edit merged into the
    // binding's pending update would carry its "collaboration" tag and never reach the other copies.
    if (lost.length > 0)
      doc.once("afterTransaction", () => {
        editor.read(() => undefined);
        editor.update(
          () => {
            lost.sort((a, b) => a.own.order - b.own.order);
            for (const { id, own, winner } of lost) $putBack(id, own, winner);
          },
          { discrete: true },
        );
      });
  };
  decisions.observe(onDecisions);
  return { decide, dispose: () => decisions.unobserve(onDecisions) };
}
