"use client";

import { HocuspocusProvider } from "@hocuspocus/provider";
import { CollaborationPlugin } from "@lexical/react/LexicalCollaborationPlugin";
import type { Provider } from "@lexical/yjs";
import { useCallback, useEffect, useRef } from "react";
import * as Y from "yjs";
import { type SyncState, watchSyncState } from "../sync-state";

/** The sync socket: same origin as the page, so the session cookie authenticates it. */
export const COLLAB_PATH = "/collab";

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${COLLAB_PATH}`;
}

/** A stable colour per user (the same in every copy), for their cursor and presence. */
export function colorFor(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 70% 42%)`;
}

interface DocumentCollaborationProps {
  documentId: string;
  user: { id: string; name: string };
  onSyncStateChange: (state: SyncState) => void;
}

/**
 * Binds the editor to the document's Yjs document over the sync socket (Lexical's v1
 * `CollaborationPlugin`: the stable binding; see the README). The server seeds every document, so
 * clients never bootstrap one. Undo is the plugin's Yjs undo manager: it undoes only this copy's
 * changes, never a co-editor's. A tab with changes the server has not acknowledged asks before closing.
 */
export function DocumentCollaboration({ documentId, user, onSyncStateChange }: DocumentCollaborationProps) {
  const providerRef = useRef<HocuspocusProvider | null>(null);
  const onSyncStateChangeRef = useRef(onSyncStateChange);
  useEffect(() => {
    onSyncStateChangeRef.current = onSyncStateChange;
  }, [onSyncStateChange]);

  const providerFactory = useCallback(
    (id: string, docs: Map<string, Y.Doc>): Provider => {
      // The binding syncs changes only, so its Yjs document must start empty: a fresh one per mount.
      const doc = new Y.Doc();
      docs.set(id, doc);
      const provider = new HocuspocusProvider({
        url: socketUrl(),
        name: documentId,
        document: doc,
        // Authentication is the session cookie the socket carries; the token is only the protocol's formality.
        token: "session-cookie",
      });
      providerRef.current = provider;
      watchSyncState(provider, (state) => onSyncStateChangeRef.current(state));
      // Hocuspocus' provider has the shape Lexical's binding reads (awareness, status events, connect/disconnect).
      return provider as unknown as Provider;
    },
    [documentId],
  );

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (providerRef.current?.hasUnsyncedChanges) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, []);

  return (
    <CollaborationPlugin
      id={documentId}
      providerFactory={providerFactory}
      shouldBootstrap={false}
      username={user.name}
      cursorColor={colorFor(user.id)}
    />
  );
}
