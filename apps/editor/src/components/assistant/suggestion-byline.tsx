import type { PendingSuggestion } from "@coauthor/tools";

/** Who proposed a suggestion and when ("Coauthor for Alice · 14:05:12"), in the review list and on the card. */
export function SuggestionByline({ suggestion }: { suggestion: PendingSuggestion }) {
  const at = new Date(suggestion.at);
  return (
    <span className="suggestion-meta">
      {suggestion.authorName} · <time dateTime={at.toISOString()}>{at.toLocaleTimeString()}</time>
    </span>
  );
}
