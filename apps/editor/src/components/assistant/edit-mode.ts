"use client";

import type { SuggestionAuthor } from "@coauthor/tools";
import type { EditMode } from "@coauthor/types";
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { reportEditMode } from "./run-lease";

/** The author a run's suggestions carry (Suggest mode). */
export type SuggestAs = (runId: string) => SuggestionAuthor;

const storageKey = (userId: string, documentId: string) => `coauthor:edit-mode:${userId}:${documentId}`;

function storedMode(userId: string, documentId: string): EditMode {
  if (typeof window === "undefined") return "direct";
  try {
    return window.localStorage.getItem(storageKey(userId, documentId)) === "suggest" ? "suggest" : "direct";
  } catch (error) {
    // Storage refused (a privacy mode): the choice lasts for this page only.
    console.warn("[assistant] could not read the edit mode:", error);
    return "direct";
  }
}

/** The writer's edit mode on this document, remembered in this browser. */
export function useEditMode(userId: string, documentId: string): [EditMode, (mode: EditMode) => void] {
  const [mode, setMode] = useState<EditMode>(() => storedMode(userId, documentId));
  const choose = useCallback(
    (next: EditMode) => {
      setMode(next);
      try {
        window.localStorage.setItem(storageKey(userId, documentId), next);
      } catch (error) {
        console.warn("[assistant] could not remember the edit mode:", error);
      }
    },
    [userId, documentId],
  );
  return [mode, choose];
}

/**
 * The writer's edit mode with what the run's tool calls read from it: `suggestAs.current` is the
 * author the agent's suggestions carry in Suggest mode (null: Edit directly). A ref, read at each
 * tool call, so switching the mode takes effect from the run's next write. The mode also goes with
 * every lease ask, so a server executor that takes over a run keeps to it. `agentAs` is who the
 * run writes as in either mode (the blocks it writes directly name it: provenance).
 */
export function useAgentEditMode(
  userId: string,
  userName: string,
  documentId: string,
): {
  editMode: EditMode;
  setEditMode: (mode: EditMode) => void;
  suggestAs: RefObject<SuggestAs | null>;
  agentAs: SuggestAs;
} {
  const [editMode, setEditMode] = useEditMode(userId, documentId);
  const agentAs = useCallback<SuggestAs>(
    (runId) => ({ authorId: userId, authorName: `Coauthor for ${userName}`, runId }),
    [userId, userName],
  );
  const suggestAs = useRef<SuggestAs | null>(null);
  suggestAs.current = editMode === "suggest" ? agentAs : null;
  useEffect(() => reportEditMode(editMode), [editMode]);
  return { editMode, setEditMode, suggestAs, agentAs };
}
