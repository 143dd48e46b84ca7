"use client";

import { registerSuggestingMode } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useLexicalEditable } from "@lexical/react/useLexicalEditable";
import { useCallback, useEffect, useState } from "react";

// The writer's own mode, as in Google Docs: Editing changes the document, Suggesting turns every
// edit they make into a suggestion authored by them (packages/tools/src/suggesting-mode.ts), which
// every co-editor sees and an owner or editor accepts or rejects. Remembered per writer and
// document in this browser.

export type WritingMode = "editing" | "suggesting";

const storageKey = (userId: string, documentId: string) => `coauthor:writing-mode:${userId}:${documentId}`;

function storedMode(userId: string, documentId: string): WritingMode {
  if (typeof window === "undefined") return "editing";
  try {
    return window.localStorage.getItem(storageKey(userId, documentId)) === "suggesting"
      ? "suggesting"
      : "editing";
  } catch (error) {
    // Storage refused (a privacy mode): the choice lasts for this page only.
    console.warn("[editor] could not read the writing mode:", error);
    return "editing";
  }
}

/**
 * The toolbar's **Editing / Suggesting** switch, and Suggesting mode itself while it is chosen.
 * A refused edit (inside another author's pending suggestion) is put back by the mode and named
 * here, so the writer knows why their keystroke did nothing.
 */
export function WritingModeSwitch({
  documentId,
  user,
}: {
  documentId: string;
  user: { id: string; name: string };
}) {
  const [editor] = useLexicalComposerContext();
  const editable = useLexicalEditable();
  const [mode, setMode] = useState<WritingMode>(() => storedMode(user.id, documentId));
  const [refusal, setRefusal] = useState<string | null>(null);
  const choose = useCallback(
    (next: WritingMode) => {
      setMode(next);
      setRefusal(null);
      try {
        window.localStorage.setItem(storageKey(user.id, documentId), next);
      } catch (error) {
        console.warn("[editor] could not remember the writing mode:", error);
      }
    },
    [user.id, documentId],
  );
  useEffect(() => {
    if (mode !== "suggesting") return;
    return registerSuggestingMode(
      editor,
      { authorId: user.id, authorName: user.name },
      {
        onRefused: (suggestion) => {
          const whose = suggestion.authorId === user.id ? "your own" : `${suggestion.authorName}'s`;
          const what = suggestion.change === "deleted" ? "removal" : "insertion";
          // Called inside the editor's update: tell React after it.
          queueMicrotask(() =>
            setRefusal(
              `That text is ${whose} pending ${what}: accept or reject it, or change the new version.`,
            ),
          );
        },
      },
    );
  }, [editor, mode, user.id, user.name]);
  return (
    <>
      <select
        className="tool-select writing-mode"
        aria-label="Writing mode"
        data-testid="writing-mode"
        data-mode={mode}
        disabled={!editable}
        value={mode}
        onChange={(event) => choose(event.target.value === "suggesting" ? "suggesting" : "editing")}
      >
        <option value="editing">Editing</option>
        <option value="suggesting">Suggesting</option>
      </select>
      {refusal ? (
        <span className="writing-mode-hint" role="status" data-testid="writing-mode-hint">
          {refusal}
        </span>
      ) : null}
    </>
  );
}
