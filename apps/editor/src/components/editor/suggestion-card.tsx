"use client";

import { $getBlockSuggestion } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getSelection, $isRangeSelection } from "lexical";
import { type CSSProperties, useEffect, useLayoutEffect, useState } from "react";
import { DecisionButtons, SuggestionByline, SuggestionChange } from "../assistant/suggestion-byline";
import { usePendingSuggestions, useSuggestionDecisions } from "../assistant/suggestion-decisions";

// The card of the suggestion where the caret is: who proposed it, when and why, with Accept and
// Reject (for owners and editors), beside the block when the page leaves room for it, else just
// under it. It comes after the document in the tab order, so Tab from the text reaches it.

const CARD_WIDTH = 220;
const GAP = 16;

/** The suggestion on the top-level block holding the caret, and that block's key. */
interface CaretSuggestion {
  id: string;
  blockKey: string;
}

export function SuggestionCard({ documentId, canDecide }: { documentId: string; canDecide: boolean }) {
  const [editor] = useLexicalComposerContext();
  const pending = usePendingSuggestions();
  const { decide, resolveError } = useSuggestionDecisions(documentId);
  const [atCaret, setAtCaret] = useState<CaretSuggestion | null>(null);
  const [style, setStyle] = useState<CSSProperties | null>(null);

  useEffect(
    () =>
      editor.registerUpdateListener(({ editorState }) => {
        const found = editorState.read((): CaretSuggestion | null => {
          const selection = $getSelection();
          if (!$isRangeSelection(selection)) return null;
          const block = selection.anchor.getNode().getTopLevelElement();
          const suggestion = block === null ? null : $getBlockSuggestion(block);
          return block !== null && suggestion !== null
            ? { id: suggestion.id, blockKey: block.getKey() }
            : null;
        });
        setAtCaret((previous) =>
          previous?.id === found?.id && previous?.blockKey === found?.blockKey ? previous : found,
        );
      }),
    [editor],
  );

  const suggestion = atCaret === null ? undefined : pending.find((item) => item.id === atCaret.id);
  // Placed after every render: the block moves as anyone types above it.
  useLayoutEffect(() => {
    const block = atCaret === null ? null : editor.getElementByKey(atCaret.blockKey);
    const shell = block?.closest(".editor-shell");
    if (!block || !(shell instanceof HTMLElement)) {
      setStyle(null);
      return;
    }
    const right = block.offsetLeft + block.offsetWidth;
    const beside = shell.clientWidth - right >= CARD_WIDTH + GAP * 2;
    const next: CSSProperties = beside
      ? { top: block.offsetTop, left: right + GAP }
      : { top: block.offsetTop + block.offsetHeight + 4, left: block.offsetLeft };
    setStyle((previous) => (previous?.top === next.top && previous?.left === next.left ? previous : next));
  });

  if (suggestion === undefined || style === null) return null;
  return (
    <aside className="suggestion-card" data-testid="suggestion-card" aria-label="Suggestion" style={style}>
      <p>
        <SuggestionByline suggestion={suggestion} />
      </p>
      {suggestion.reason ? <p className="suggestion-reason">{suggestion.reason}</p> : null}
      <p className="suggestion-card-summary">
        {suggestion.deleted && suggestion.inserted
          ? "Replaces a block"
          : suggestion.inserted
            ? "Inserts a block"
            : "Removes a block"}
      </p>
      <p className="suggestion-card-change">
        <SuggestionChange suggestion={suggestion} max={80} />
      </p>
      {canDecide ? <DecisionButtons onDecide={(decision) => decide([suggestion], decision)} /> : null}
      {resolveError ? <p className="message-notice">{resolveError}</p> : null}
    </aside>
  );
}
