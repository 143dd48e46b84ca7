import { mentionNamesOf } from "@coauthor/types";
import type { Metadata } from "next";
import { DocumentWorkspace } from "@/components/documents/document-workspace";
import { requirePageUser } from "@/server/auth/page-session";
import { initialDocumentState } from "@/server/collab/initial-state";
import { findAccessibleDocument } from "@/server/documents";

type DocumentPageProps = { params: Promise<{ documentId: string }> };

// Ids are at most this long (the documents router's schema); a longer one names no document.
const MAX_DOCUMENT_ID_CHARS = 100;

/** The tab is titled after the document ("<title> — Coauthor"), for the people who may open it. */
export async function generateMetadata({ params }: DocumentPageProps): Promise<Metadata> {
  const { documentId } = await params;
  const user = await requirePageUser(`/documents/${encodeURIComponent(documentId)}`);
  const document =
    documentId.length <= MAX_DOCUMENT_ID_CHARS ? await findAccessibleDocument(user.id, documentId) : null;
  return { title: document?.title ?? "Document" };
}

/** A document: the editor and the assistant panel. */
export default async function DocumentPage({ params }: DocumentPageProps) {
  const { documentId } = await params;
  const user = await requirePageUser(`/documents/${encodeURIComponent(documentId)}`);
  const initialState =
    documentId.length <= MAX_DOCUMENT_ID_CHARS ? await initialDocumentState(user.id, documentId) : null;
  return (
    <DocumentWorkspace
      documentId={documentId}
      user={{ id: user.id, name: user.name || user.email, mentionNames: mentionNamesOf(user) }}
      initialState={initialState}
    />
  );
}
