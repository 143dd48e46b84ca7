import { DocumentWorkspace } from "@/components/documents/document-workspace";
import { requirePageUser } from "@/server/auth/page-session";

/** A document: the editor and the assistant panel. */
export default async function DocumentPage({ params }: { params: Promise<{ documentId: string }> }) {
  const { documentId } = await params;
  await requirePageUser(`/documents/${encodeURIComponent(documentId)}`);
  return <DocumentWorkspace documentId={documentId} />;
}
