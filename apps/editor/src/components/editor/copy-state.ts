"use client";

import { type RefObject, useCallback, useEffect } from "react";
import * as Y from "yjs";
import { useAgentLive } from "./agent-live-context";

/**
 * The Yjs state the writer's copy holds, base64, for a request to send with it: the server waits
 * for the live document to hold it before acting (a comment, a version, an export), so what the
 * writer typed just before asking is never left out.
 */
export function useCopyState(): () => string {
  const { collab } = useAgentLive();
  return useCallback(() => {
    const bytes = Y.encodeStateVector(collab().doc);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
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
