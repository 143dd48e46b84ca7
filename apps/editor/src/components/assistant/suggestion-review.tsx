"use client";

import type { PendingSuggestion } from "@coauthor/tools";
import { useId, useState } from "react";
import { DecisionButtons, SuggestionByline, SuggestionChange } from "./suggestion-byline";
import { usePendingSuggestions, useSuggestionDecisions } from "./suggestion-decisions";

/** Whose suggestions the review shows and decides at once: one agent run's, or one person's. */
interface SuggestionSource {
  key: string;
  label: string;
}

function sourceOf(suggestion: PendingSuggestion): SuggestionSource {
  if (suggestion.runId === undefined)
    return { key: `author:${suggestion.authorId}`, label: suggestion.authorName };
  const started = new Date(suggestion.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return { key: `run:${suggestion.runId}`, label: `${suggestion.authorName} · run at ${started}` };
}

/** The sources of `pending`, each once, in the order their first suggestion comes. */
function sourcesOf(pending: PendingSuggestion[]): SuggestionSource[] {
  const sources = new Map<string, SuggestionSource>();
  for (const suggestion of pending) {
    const source = sourceOf(suggestion);
    if (!sources.has(source.key)) sources.set(source.key, source);
  }
  return [...sources.values()];
}

const EVERYONE = "all";

/**
 * Every pending suggestion in document order — who proposed it, when, why, what it adds and
 * removes — with Accept and Reject on each and for all; with suggestions from more than one run or
 * person, a "Suggestions from" choice narrows the list, and Accept all / Reject all, to one. A decision is an ordinary edit of this
 * copy: it reaches every copy live, and Ctrl+Z undoes it. Viewers see the list without controls.
 * Accepting a suggestion asked for in a comment thread (`@Coauthor`) resolves the thread.
 */
export function SuggestionReview({
  documentId,
  canDecide,
  onReveal,
}: {
  documentId: string;
  canDecide: boolean;
  onReveal: (blockId: string) => boolean;
}) {
  const everyone = usePendingSuggestions();
  const { decide, resolveError } = useSuggestionDecisions(documentId);
  const [from, setFrom] = useState(EVERYONE);
  const filterId = useId();
  if (everyone.length === 0) return null;
  const sources = sourcesOf(everyone);
  // A source whose suggestions are all decided is gone from the list: show everyone's again.
  const shown = sources.some((source) => source.key === from) ? from : EVERYONE;
  const pending = shown === EVERYONE ? everyone : everyone.filter((item) => sourceOf(item).key === shown);
  return (
    <section className="suggestion-review" data-testid="suggestion-review" aria-label="Suggestions">
      <div className="suggestion-review-header">
        <h3>
          {pending.length} {pending.length === 1 ? "suggestion" : "suggestions"}
        </h3>
        {sources.length > 1 ? (
          <>
            <label className="visually-hidden" htmlFor={filterId}>
              Suggestions from
            </label>
            <select
              id={filterId}
              className="suggestion-source"
              data-testid="suggestions-from"
              value={shown}
              onChange={(event) => setFrom(event.target.value)}
            >
              <option value={EVERYONE}>Everyone</option>
              {sources.map((source) => (
                <option key={source.key} value={source.key}>
                  {source.label}
                </option>
              ))}
            </select>
          </>
        ) : null}
        {canDecide ? (
          <>
            <button
              type="button"
              className="button"
              data-testid="suggestions-accept-all"
              onClick={() => decide(pending, "accept")}
            >
              Accept all
            </button>
            <button
              type="button"
              className="button"
              data-testid="suggestions-reject-all"
              onClick={() => decide(pending, "reject")}
            >
              Reject all
            </button>
          </>
        ) : null}
      </div>
      <ol className="suggestion-list">
        {pending.map((suggestion) => (
          <li key={suggestion.id} className="suggestion-item" data-testid="suggestion-item">
            <button
              type="button"
              className="suggestion-open"
              onClick={() => (suggestion.firstBlockId ? onReveal(suggestion.firstBlockId) : undefined)}
            >
              <SuggestionByline suggestion={suggestion} />
              {suggestion.reason ? <span className="suggestion-reason">{suggestion.reason}</span> : null}
              {suggestion.threadId ? (
                <span className="suggestion-thread" data-testid="suggestion-from-comment">
                  Asked in a comment: accepting resolves it
                </span>
              ) : null}
              <SuggestionChange suggestion={suggestion} max={120} />
            </button>
            {canDecide ? <DecisionButtons onDecide={(decision) => decide([suggestion], decision)} /> : null}
          </li>
        ))}
      </ol>
      {resolveError ? <p className="message-notice">{resolveError}</p> : null}
    </section>
  );
}
