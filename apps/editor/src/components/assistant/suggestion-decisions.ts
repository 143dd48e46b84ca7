"use client";

import {
  listSuggestions,
  type PendingSuggestion,
  recordSuggestionOutcomes,
  registerConcurrentDecisions,
} from "@coauthor/tools";
import type { SuggestionDecision } from "@coauthor/types";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import type { LexicalEditor } from "lexical";
import { useCallback, useEffect, useState } from "react";
import type * as Y from "yjs";
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
 * One decider per page editor, for as long as the editor lives: it must outlive the card and the
 * list that decide through it, since it keeps each decision until it knows it stood.
 */
const deciders = new WeakMap<LexicalEditor, ReturnType<typeof registerConcurrentDecisions>>();

function deciderFor(editor: LexicalEditor, doc: Y.Doc) {
  let decider = deciders.get(editor);
  if (decider === undefined) {
    decider = registerConcurrentDecisions(editor, doc);
    deciders.set(editor, decider);
  }
  return decider;
}

/**
 * Accepting or rejecting suggestions: an ordinary edit of this copy (it reaches every copy live,
 * and Ctrl+Z undoes it); an opposite decision made at the same moment in another copy settles on
 * one of the two in every copy (concurrent-decisions.ts in the tools). A run's suggestions decided here are noted in the document for the run's
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
      const { doc } = collab();
      deciderFor(editor, doc).decide(new Set(deciding.map((suggestion) => suggestion.id)), decision);
      recordSuggestionOutcomes(doc, deciding, decision, writerName);
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
