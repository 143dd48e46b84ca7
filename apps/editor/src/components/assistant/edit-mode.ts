"use client";

import type { EditMode } from "@coauthor/types";
import { useCallback, useState } from "react";

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
