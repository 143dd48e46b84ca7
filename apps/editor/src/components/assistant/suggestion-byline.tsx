import type { PendingSuggestion } from "@coauthor/tools";
import type { SuggestionDecision } from "@coauthor/types";

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
