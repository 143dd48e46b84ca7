"use client";

import { CollaborationPlugin } from "@lexical/react/LexicalCollaborationPlugin";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import type { Provider } from "@lexical/yjs";
import { useCallback, useEffect, useRef } from "react";
import type * as Y from "yjs";
import { useAgentLive } from "../agent-live-context";
import { keepCaretOnRemoteChange } from "../caret-on-remote-change";
import { type SyncState, watchSyncState } from "../sync-state";

/** Relative luminance (WCAG) of the colour hsl(hue 70% lightness%). */
function luminance(hue: number, lightness: number): number {
  const l = lightness / 100;
  const a = 0.7 * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
}

/**
 * A stable colour per user (the same in every copy), for their cursor and presence. Dark enough
 * for the white name on a co-editor's cursor label to read (contrast ≥ 4.5:1, WCAG AA): a fixed
 * lightness left yellows and greens at about 2:1, which axe flagged whenever such a cursor showed.
 */
export function colorFor(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  const hue = Math.abs(hash) % 360;
  let lightness = 42;
  while (lightness > 10 && 1.05 / (luminance(hue, lightness) + 0.05) < 4.6) lightness -= 2;
  return `hsl(${hue} 70% ${lightness}%)`;
}

interface DocumentCollaborationProps {
  documentId: string;
  user: { id: string; name: string };
  onSyncStateChange: (state: SyncState) => void;
  /** A viewer's copy, or a writer's in Viewing mode: read-only after the first sync. */
  readOnly: boolean;
}

const isClosed = (state: SyncState) => state === "refused" || state === "damaged" || state === "rejected";

/**
 * Binds the editor to the document's Yjs document over the sync socket (Lexical's v1
 * `CollaborationPlugin`: the stable binding; see docs/collaboration.md). The server seeds every document, so
 * clients never bootstrap one. Undo is the plugin's Yjs undo manager: it undoes only this copy's
 * own typing, never a co-editor's or the agent's. A tab with changes the server has not
 * acknowledged, or has not been able to store, asks before closing.
 */
export function DocumentCollaboration({
  documentId,
  user,
  onSyncStateChange,
  readOnly,
}: DocumentCollaborationProps) {
  const [editor] = useLexicalComposerContext();
  const { collab } = useAgentLive();
  const onSyncStateChangeRef = useRef(onSyncStateChange);
  const syncStateRef = useRef<SyncState>("connecting");
  useEffect(() => {
    onSyncStateChangeRef.current = onSyncStateChange;
  }, [onSyncStateChange]);

  const providerFactory = useCallback(
    (id: string, docs: Map<string, Y.Doc>): Provider => {
      const session = collab();
      docs.set(id, session.doc);
      watchSyncState(session.provider, (state) => {
        syncStateRef.current = state;
        // A copy the server closed takes no more typing: nothing typed there could be saved.
        if (isClosed(state)) editor.setEditable(false);
        onSyncStateChangeRef.current(state);
      });
      return session.lexicalProvider();
    },
    [collab, editor],
  );

  // The editor starts read-only: words typed before the document arrives (from the server or this
  // browser's offline copy) would go into an empty root beside the document's real first paragraph.
  useEffect(() => {
    let current = true;
    collab()
      .whenReadable()
      .then(() => {
        // A closed copy stays closed when the writer leaves Viewing mode.
        if (current && !isClosed(syncStateRef.current)) editor.setEditable(!readOnly);
      });
    return () => {
      current = false;
    };
  }, [collab, editor, readOnly]);

  useEffect(() => keepCaretOnRemoteChange(editor, collab().doc), [collab, editor]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      // Unacknowledged here, or held by a server that cannot store them yet.
      if (collab().provider.hasUnsyncedChanges || syncStateRef.current === "unsaved") event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
    };
  }, [collab]);

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
