"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { AssistantPanel } from "@/components/assistant/assistant-panel";
import type { SaveState } from "@/components/editor/autosave";
import { DocumentEditor } from "@/components/editor/document-editor";
import { useTRPC } from "@/trpc/react";
import { DocumentTitle } from "./document-title";
import { ShareDialog } from "./share-dialog";
import "./sharing.css";

function describeSave(state: SaveState): string {
  if (state.kind === "saved") return "Saved";
  if (state.kind === "saving") return "Saving…";
  return `Save failed: ${state.message}`;
}

/** The document page: title, save state (or "view only"), sharing, editor and assistant panel. */
export function DocumentWorkspace({ documentId }: { documentId: string }) {
  const trpc = useTRPC();
  // Loaded once: the editor owns the content from then on, so a refetch must not reset it.
  const query = useQuery({
    ...trpc.documents.get.queryOptions({ id: documentId }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const [saveState, setSaveState] = useState<SaveState>({ kind: "saved" });
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
          <span className={`save-status save-${saveState.kind}`} data-testid="save-status" role="status">
            {describeSave(saveState)}
          </span>
        )}
        {data.role === "owner" ? (
          <button type="button" className="button" onClick={() => setSharing(true)}>
            Share
          </button>
        ) : null}
      </header>
      {sharing ? <ShareDialog documentId={data.id} onClose={() => setSharing(false)} /> : null}
      <DocumentEditor
        key={data.id}
        documentId={data.id}
        initialContent={data.content}
        readOnly={data.role === "viewer"}
        onSaveStateChange={setSaveState}
        aside={<AssistantPanel documentId={data.id} canEdit={data.role !== "viewer"} />}
      />
    </main>
  );
}
