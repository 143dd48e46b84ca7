"use client";

import { registerSuggestingMode } from "@coauthor/tools";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useLexicalEditable } from "@lexical/react/useLexicalEditable";
import { useCallback, useEffect, useState } from "react";

// The writer's own mode, as in Google Docs: Editing changes the document, Suggesting turns every
// edit they make into a suggestion authored by them (packages/tools/src/suggesting-mode.ts), which
// every co-editor sees and an owner or editor accepts or rejects, and Viewing reads the document
// as it would be with every pending suggestion accepted, without changing it. Remembered per
// writer and document in this browser.

export type WritingMode = "editing" | "suggesting" | "viewing";

const modes: readonly WritingMode[] = ["editing", "suggesting", "viewing"];

function asMode(value: string | null): WritingMode {
  return modes.find((mode) => mode === value) ?? "editing";
}

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

/** The writer's chosen mode for this document and a way to choose another (remembered). */
export function useWritingMode(userId: string, documentId: string) {
  const [mode, setMode] = useState<WritingMode>(() => storedMode(userId, documentId));
  const choose = useCallback(
    (next: WritingMode) => {
      setMode(next);
      try {
        window.localStorage.setItem(storageKey(userId, documentId), next);
      } catch (error) {
        console.warn("[editor] could not remember the writing mode:", error);
      }
    },
    [userId, documentId],
  );
  return [mode, choose] as const;
}

/**
 * The toolbar's **Editing / Suggesting / Viewing** switch, Suggesting mode itself while it is
 * chosen, and Viewing's look (the root's `data-viewing`: pending deletions hidden, insertions
 * unmarked). Viewing's read-only copy is the collaboration plugin's (it owns when the editor may
 * be edited). A refused edit (inside another author's pending suggestion) is put back by the
 * mode and named here, so the writer knows why their keystroke did nothing.
 */
export function WritingModeSwitch({
  user,
  mode,
  onChoose,
}: {
  user: { id: string; name: string };
  mode: WritingMode;
  onChoose: (mode: WritingMode) => void;
}) {
  const [editor] = useLexicalComposerContext();
  const editable = useLexicalEditable();
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(
    () =>
      editor.registerRootListener((root, previous) => {
        if (previous !== null) delete previous.dataset.viewing;
        if (root === null) return;
        if (mode === "viewing") root.dataset.viewing = "true";
        else delete root.dataset.viewing;
      }),
    [editor, mode],
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
        // Not editable while Viewing is this switch's own doing: the way back must stay open.
        disabled={!editable && mode !== "viewing"}
        value={mode}
        onChange={(event) => {
          setRefusal(null);
          onChoose(asMode(event.target.value));
        }}
      >
        <option value="editing">Editing</option>
        <option value="suggesting">Suggesting</option>
        <option value="viewing">Viewing</option>
      </select>
      {refusal ? (
        <span className="writing-mode-hint" role="status" data-testid="writing-mode-hint">
          {refusal}
        </span>
      ) : null}
    </>
  );
}
