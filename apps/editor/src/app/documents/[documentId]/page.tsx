import { DocumentWorkspace } from "@/components/documents/document-workspace";

/** A document: the editor and the assistant panel. */
export default async function DocumentPage({ params }: { params: Promise<{ documentId: string }> }) {
  const { documentId } = await params;
  return <DocumentWorkspace documentId={documentId} />;
}
