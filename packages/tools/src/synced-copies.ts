import * as Y from "yjs";
import { type BoundDocumentEditor, flush } from "./yjs-document.ts";

// Test-only helper: copies of one document whose updates are held back from each other, then
// exchanged, as two people's edits made at the same moment, neither having seen the other.

/** Delivers every update each copy has that the other lacks, and lets both editors catch up. */
export function exchange(a: BoundDocumentEditor, b: BoundDocumentEditor): void {
  const forB = Y.encodeStateAsUpdate(a.doc, Y.encodeStateVector(b.doc));
  const forA = Y.encodeStateAsUpdate(b.doc, Y.encodeStateVector(a.doc));
  Y.applyUpdate(b.doc, forB);
  Y.applyUpdate(a.doc, forA);
  flush(a.editor);
  flush(b.editor);
}
