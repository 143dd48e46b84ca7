"use client";

import { useQuery } from "@tanstack/react-query";
import type { LexicalEditor } from "lexical";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { AnnouncerProvider, useAnnounce } from "@/components/a11y/announcer";
import { AssistantPanel } from "@/components/assistant/assistant-panel";
import { DocumentEditor } from "@/components/editor/document-editor";
import { describeSyncState, type SyncState } from "@/components/editor/sync-state";
import { useTRPC } from "@/trpc/react";
import { DamagedNotice } from "./damaged-notice";
import { DocumentTitle } from "./document-title";
import { ExportMarkdown } from "./export-markdown";
import { ShareDialog } from "./share-dialog";
import "./sharing.css";

interface DocumentWorkspaceProps {
  documentId: string;
  /** The signed-in writer; `mentionNames`: the `@names` comments mention them by. */
  user: { id: string; name: string; mentionNames: string[] };
  /** The document's Yjs state when the page was made (base64), or null: see `initialDocumentState`. */
  initialState: string | null;
}

/** The document page, with one live region that every part of it announces summaries through. */
export function DocumentWorkspace(props: DocumentWorkspaceProps) {
  return (
    <AnnouncerProvider>
      <Workspace {...props} />
    </AnnouncerProvider>
  );
}

/**
 * Save failures are announced; "Saving…" / "Saved" after every pause in typing are not. A damaged
 * document is announced by its notice (an alert).
 */
function useSaveFailureAnnouncement(state: SyncState) {
  const announce = useAnnounce();
  useEffect(() => {
    if (state === "offline" || state === "unsaved" || state === "refused" || state === "rejected") {
      announce(describeSyncState(state));
    }
  }, [announce, state]);
}

/** Title, sync state (or "view only"), Markdown export, sharing, editor and assistant panel. */
function Workspace({ documentId, user, initialState }: DocumentWorkspaceProps) {
  const trpc = useTRPC();
  // The title and role, loaded once; the content comes over the sync socket.
  const query = useQuery({
    ...trpc.documents.get.queryOptions({ id: documentId }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const [syncState, setSyncState] = useState<SyncState>("connecting");
  const [sharing, setSharing] = useState(false);
  const editorRef = useRef<LexicalEditor | null>(null);
  const copyStateRef = useRef<(() => string) | null>(null);
  useSaveFailureAnnouncement(syncState);

  if (query.isPending) {
    return <main className="workspace-message muted">Loading document…</main>;
  }
  if (query.isError) {
    return (
      <main className="workspace-message">
        <p role="alert" className="error">
          Could not open this document: {query.error.message}
        </p>
        <Link href="/">Back to documents</Link>
      </main>
    );
  }

  const { data } = query;
  // Commenters read like viewers; they comment through the server (never through the sync socket).
  const canEdit = data.role === "owner" || data.role === "editor";
  const canComment = data.role !== "viewer";
  return (
    <main className="workspace">
      <header className="workspace-header">
        <Link href="/" className="back-link">
          ← Documents
        </Link>
        <DocumentTitle
          key={data.id}
          documentId={data.id}
          initialTitle={data.title}
          readOnly={!canEdit}
          onEnter={() => editorRef.current?.focus()}
        />
        {!canEdit ? (
          <span className="role-badge" data-testid="role-badge">
            {canComment ? "Can comment" : "View only"}
          </span>
        ) : (
          <span className={`save-status save-${syncState}`} data-testid="save-status" data-state={syncState}>
            {describeSyncState(syncState)}
          </span>
        )}
        <ExportMarkdown
          documentId={data.id}
          title={data.title}
          editorRef={editorRef}
          copyStateRef={copyStateRef}
        />
        {data.role === "owner" ? (
          <button type="button" className="button" onClick={() => setSharing(true)}>
            Share
          </button>
        ) : null}
      </header>
      {sharing ? <ShareDialog documentId={data.id} onClose={() => setSharing(false)} /> : null}
      {syncState === "damaged" ? (
        <DamagedNotice documentId={data.id} isOwner={data.role === "owner"} />
      ) : null}
      <DocumentEditor
        key={data.id}
        documentId={data.id}
        user={user}
        initialState={initialState}
        readOnly={!canEdit}
        canComment={canComment}
        onSyncStateChange={setSyncState}
        editorRef={editorRef}
        copyStateRef={copyStateRef}
        aside={
          <AssistantPanel
            documentId={data.id}
            userId={user.id}
            userName={user.name}
            mentionNames={user.mentionNames}
            canEdit={canEdit}
            canComment={canComment}
          />
        }
      />
    </main>
  );
}
