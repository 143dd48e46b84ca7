"use client";

import { $decideSuggestions, listSuggestions, type PendingSuggestion } from "@coauthor/tools";
import type { SuggestionDecision } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect, useState } from "react";

/** The pending suggestions of the page's document, kept current as anyone edits it. */
function usePendingSuggestions(): PendingSuggestion[] {
  const [editor] = useLexicalComposerContext();
  const [pending, setPending] = useState<PendingSuggestion[]>(() => listSuggestions(editor));
  useEffect(() => {
    setPending(listSuggestions(editor));
    return editor.registerUpdateListener(() => setPending(listSuggestions(editor)));
  }, [editor]);
  return pending;
}

function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Every pending suggestion in document order — who proposed it, when, why, what it adds and
 * removes — with Accept and Reject on each and for all. A decision is an ordinary edit of this
 * copy: it reaches every copy live, and Ctrl+Z undoes it. Viewers see the list without controls.
 */
export function SuggestionReview({
  canDecide,
  onReveal,
}: {
  canDecide: boolean;
  onReveal: (blockId: string) => boolean;
}) {
  const [editor] = useLexicalComposerContext();
  const pending = usePendingSuggestions();
  if (pending.length === 0) return null;
  const decide = (ids: string[], decision: SuggestionDecision) => {
    editor.update(() => {
      $decideSuggestions(new Set(ids), decision);
    });
  };
  const all = pending.map((suggestion) => suggestion.id);
  return (
    <section className="suggestion-review" data-testid="suggestion-review" aria-label="Suggestions">
      <div className="suggestion-review-header">
        <h3>
          {pending.length} {pending.length === 1 ? "suggestion" : "suggestions"}
        </h3>
        {canDecide ? (
          <>
            <button
              type="button"
              className="button"
              data-testid="suggestions-accept-all"
              onClick={() => decide(all, "accept")}
            >
              Accept all
            </button>
            <button
              type="button"
              className="button"
              data-testid="suggestions-reject-all"
              onClick={() => decide(all, "reject")}
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
              <span className="suggestion-meta">
                {suggestion.authorName} ·{" "}
                <time dateTime={new Date(suggestion.at).toISOString()}>
                  {new Date(suggestion.at).toLocaleTimeString()}
                </time>
              </span>
              {suggestion.reason ? <span className="suggestion-reason">{suggestion.reason}</span> : null}
              {suggestion.deleted ? (
                <del className="suggestion-deleted">{clip(suggestion.deleted)}</del>
              ) : null}
              {suggestion.inserted ? (
                <ins className="suggestion-inserted">{clip(suggestion.inserted)}</ins>
              ) : null}
            </button>
            {canDecide ? (
              <div className="suggestion-actions">
                <button type="button" className="button" onClick={() => decide([suggestion.id], "accept")}>
                  Accept
                </button>
                <button type="button" className="button" onClick={() => decide([suggestion.id], "reject")}>
                  Reject
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
