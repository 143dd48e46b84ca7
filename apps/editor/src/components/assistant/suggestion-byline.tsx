import type { PendingSuggestion } from "@coauthor/tools";
import type { SuggestionDecision } from "@coauthor/types";
import { aroundChanges, changedSpans, textChanges } from "../editor/word-diff";
import { WordChanges } from "./word-changes";

// What the review list and the card at the caret show of each suggestion alike.

/** Who proposed a suggestion and when ("Coauthor for Alice · 14:05:12"), in the review list and on the card. */
export function SuggestionByline({ suggestion }: { suggestion: PendingSuggestion }) {
  const at = new Date(suggestion.at);
  return (
    <span className="suggestion-meta">
      {suggestion.authorName} · <time dateTime={at.toISOString()}>{at.toLocaleTimeString()}</time>
    </span>
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * What a suggestion changes: for a replaced block that kept some of its words, the words deleted
 * and inserted with a little of the text around them; else the text it removes and the text it
 * adds, cut to `max` characters each.
 */
export function SuggestionChange({ suggestion, max }: { suggestion: PendingSuggestion; max: number }) {
  const parts = textChanges(suggestion.deleted, suggestion.inserted);
  if (suggestion.deleted && suggestion.inserted && changedSpans(parts) !== null)
    return (
      <span className="suggestion-words" data-testid="suggestion-words">
        <WordChanges parts={aroundChanges(parts, Math.floor(max / 4))} />
      </span>
    );
  return (
    <>
      {suggestion.deleted ? <del className="suggestion-deleted">{clip(suggestion.deleted, max)}</del> : null}
      {suggestion.inserted ? (
        <ins className="suggestion-inserted">{clip(suggestion.inserted, max)}</ins>
      ) : null}
    </>
  );
}

/** Accept and Reject (exactly those names) for one suggestion. */
export function DecisionButtons({ onDecide }: { onDecide: (decision: SuggestionDecision) => void }) {
  return (
    <div className="suggestion-actions">
      <button type="button" className="button" onClick={() => onDecide("accept")}>
        Accept
      </button>
      <button type="button" className="button" onClick={() => onDecide("reject")}>
        Reject
      </button>
    </div>
  );
}
