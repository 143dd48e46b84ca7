// How a step reads the document as the server has it (Markdown), for what must not go through the
// browser's tools: the snapshot the branches of a parallel block read. The app plugs in its
// reader at server start (`configureAgent`); without one (tests, scripts) a reader must
// be configured before a pipeline with a parallel block runs.

export type DocumentReader = (documentId: string) => Promise<string>;

const KEY = Symbol.for("coauthor.document-reader");
type Holder = typeof globalThis & { [KEY]?: DocumentReader };

export function configureDocumentReader(reader: DocumentReader): void {
  (globalThis as Holder)[KEY] = reader;
}

/** The document's Markdown now, as the server has it. */
export function readDocumentMarkdown(documentId: string): Promise<string> {
  const reader = (globalThis as Holder)[KEY];
  if (!reader) throw new Error("no document reader is configured (configureAgent)");
  return reader(documentId);
}
