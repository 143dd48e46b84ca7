import { DocumentWorkspace } from "@/components/documents/document-workspace";
import { requirePageUser } from "@/server/auth/page-session";

/** A document: the editor and the assistant panel. */
export default async function DocumentPage({ params }: { params: Promise<{ documentId: string }> }) {
  const { documentId } = await params;
  const user = await requirePageUser(`/documents/${encodeURIComponent(documentId)}`);
  return <DocumentWorkspace documentId={documentId} user={{ id: user.id, name: user.name || user.email }} />;
}
