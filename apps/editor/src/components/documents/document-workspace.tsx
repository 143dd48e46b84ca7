"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { AssistantPanel } from "@/components/assistant/assistant-panel";
import { DocumentEditor } from "@/components/editor/document-editor";
import { describeSyncState, type SyncState } from "@/components/editor/sync-state";
import { useTRPC } from "@/trpc/react";
import { DamagedNotice } from "./damaged-notice";
import { DocumentTitle } from "./document-title";
import { ShareDialog } from "./share-dialog";
import "./sharing.css";

/** The document page: title, sync state (or "view only"), sharing, editor and assistant panel. */
export function DocumentWorkspace({
  documentId,
  user,
}: {
  documentId: string;
  user: { id: string; name: string };
}) {
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
  return (
    <main className="workspace">
      <header className="workspace-header">
        <Link href="/" className="back-link" aria-label="All documents">
          ← Documents
        </Link>
        <DocumentTitle
          key={data.id}
          documentId={data.id}
          initialTitle={data.title}
          readOnly={data.role === "viewer"}
        />
        {data.role === "viewer" ? (
          <span className="role-badge" data-testid="role-badge">
            View only
          </span>
        ) : (
          <span className={`save-status save-${syncState}`} data-testid="save-status" data-state={syncState}>
            {describeSyncState(syncState)}
          </span>
        )}
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
        readOnly={data.role === "viewer"}
        onSyncStateChange={setSyncState}
        aside={<AssistantPanel documentId={data.id} userId={user.id} canEdit={data.role !== "viewer"} />}
      />
    </main>
  );
}
