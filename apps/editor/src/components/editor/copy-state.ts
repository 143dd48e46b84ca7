"use client";

import { type RefObject, useCallback, useEffect } from "react";
import { useAgentLive } from "./agent-live-context";

/**
 * What the writer's copy wrote itself (its own edits and its agent's: `ownStateVector`), base64,
 * for a request to send with it: the server waits for the live document to hold it before acting
 * (a comment, a version, an export), so what the writer typed just before asking is never left
 * out. Not the copy's whole state vector: the rest came from the server, and a long-lived
 * document's whole vector (an entry per editing session ever) outgrows a request — an export's is
 * in its URL.
 */
export function useCopyState(): () => string {
  const { collab } = useAgentLive();
  return useCallback(() => {
    let binary = "";
    for (const byte of collab().ownStateVector()) binary += String.fromCharCode(byte);
    return btoa(binary);
  }, [collab]);
}

/** Hands `useCopyState` to a control outside the editor (the header's Export Markdown) through `target`. */
export function CopyStateRef({ target }: { target: RefObject<(() => string) | null> }) {
  const copyState = useCopyState();
  useEffect(() => {
    target.current = copyState;
    return () => {
      target.current = null;
    };
  }, [target, copyState]);
  return null;
}
