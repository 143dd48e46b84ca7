"use client";

import * as Y from "yjs";
import { useAgentLive } from "./agent-live-context";

/**
 * The Yjs state the writer's copy holds, base64, for a request to send with it: the server waits
 * for the live document to hold it before acting (a comment, a version), so what the writer typed
 * just before asking is never left out.
 */
export function useCopyState(): () => string {
  const { collab } = useAgentLive();
  return () => {
    const bytes = Y.encodeStateVector(collab().doc);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  };
}
