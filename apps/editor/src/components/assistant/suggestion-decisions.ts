"use client";

import {
  $decideSuggestions,
  listSuggestions,
  type PendingSuggestion,
  recordSuggestionOutcomes,
} from "@coauthor/tools";
import type { SuggestionDecision } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useCallback, useEffect, useState } from "react";
import { useTRPCClient } from "@/trpc/react";
import { useAgentLive } from "../editor/agent-live-context";

// What the review list in the panel and the card beside a suggested block share: the pending
// suggestions, and deciding them.

/** The pending suggestions of the page's document, kept current as anyone edits it. */
export function usePendingSuggestions(): PendingSuggestion[] {
  const [editor] = useLexicalComposerContext();
  const [pending, setPending] = useState<PendingSuggestion[]>(() => listSuggestions(editor));
  useEffect(() => {
    setPending(listSuggestions(editor));
    return editor.registerUpdateListener(() => setPending(listSuggestions(editor)));
  }, [editor]);
  return pending;
}

/**
 * Accepting or rejecting suggestions: an ordinary edit of this copy (it reaches every copy live,
 * and Ctrl+Z undoes it). A run's suggestions decided here are noted in the document for the run's
 * model (suggestion-outcomes.ts), which hears of them with its next tool call. Accepting a suggestion asked for in a comment thread (`@Coauthor`)
 * resolves the thread; `resolveError` says when that failed.
 */
export function useSuggestionDecisions(documentId: string): {
  decide: (suggestions: PendingSuggestion[], decision: SuggestionDecision) => void;
  resolveError: string | null;
} {
  const [editor] = useLexicalComposerContext();
  const { collab, writerName } = useAgentLive();
  const client = useTRPCClient();
  const [resolveError, setResolveError] = useState<string | null>(null);
  const decide = useCallback(
    (suggestions: PendingSuggestion[], decision: SuggestionDecision) => {
      // Those still pending: a suggestion someone decided a moment ago is not decided again.
      const pendingIds = new Set(listSuggestions(editor).map((suggestion) => suggestion.id));
      const deciding = suggestions.filter((suggestion) => pendingIds.has(suggestion.id));
      editor.update(() => {
        $decideSuggestions(new Set(deciding.map((suggestion) => suggestion.id)), decision);
      });
      recordSuggestionOutcomes(collab().doc, deciding, decision, writerName);
      if (decision !== "accept") return;
      const threads = new Set(suggestions.flatMap((item) => (item.threadId ? [item.threadId] : [])));
      setResolveError(null);
      for (const threadId of threads) {
        client.comments.setStatus
          .mutate({ documentId, threadId, status: "resolved" })
          .catch((error: unknown) => {
            setResolveError(
              `The comment that asked for it was not resolved: ${error instanceof Error ? error.message : String(error)}`,
            );
          });
      }
    },
    [editor, collab, writerName, client, documentId],
  );
  return { decide, resolveError };
}
