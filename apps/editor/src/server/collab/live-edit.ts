import type { BoundDocumentEditor } from "@coauthor/tools";
import * as Y from "yjs";
import { recordThreadSummaries, type ThreadSummary, watchThreadChanges } from "../comment-summary";
import { bindLoadedState } from "./document-health";
import { getSyncServer } from "./sync-server";

/** How long a server edit waits for the writer's own last changes to reach the live document. */
const WRITER_STATE_WAIT_MS = 5_000;

/** The state vector's clocks are all reached by `doc`. */
function covers(doc: Y.Doc, stateVector: Map<number, number>): boolean {
  for (const [client, clock] of stateVector) if (Y.getState(doc.store, client) < clock) return false;
  return true;
}

/**
 * Resolves once `doc` holds everything `stateVector` names (the writer's copy when they asked),
 * or after WRITER_STATE_WAIT_MS: their keystrokes travel over the socket while the request travels
 * over HTTP, and the request must not act on a document older than what they saw.
 */
function whenCovered(doc: Y.Doc, stateVector: Map<number, number>): Promise<void> {
  if (covers(doc, stateVector)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      doc.off("update", check);
      resolve();
    };
    const check = () => {
      if (covers(doc, stateVector)) done();
    };
    const timer = setTimeout(done, WRITER_STATE_WAIT_MS);
    doc.on("update", check);
  });
}

/**
 * Edits the sync server's live copy of a document from the server (a restore, a comment): `change`
 * runs on a headless editor bound to a copy of the live document, and what it changed is applied
 * to the live document as one update — computed and applied in one synchronous step, so no update
 * slips in between — which reaches every open copy and is stored like anyone's edit. With
 * `after` (a writer's Yjs state vector), waits first for the live document to hold their changes.
 * What the edit did to comment threads is recorded in their summary (comment-summary.ts) before it
 * returns.
 */
export async function editLiveDocument<T>(
  documentId: string,
  userId: string,
  change: (copy: BoundDocumentEditor) => T,
  after?: Uint8Array,
): Promise<T> {
  const connection = await getSyncServer().hocuspocus.openDirectConnection(documentId, { userId });
  try {
    const live = connection.document;
    if (live === null) throw new Error(`document ${documentId} is not loaded`);
    if (after !== undefined) await whenCovered(live, Y.decodeStateVector(after));
    let result: { value: T } | null = null;
    let threads = new Map<string, ThreadSummary>();
    await connection.transact((document) => {
      // The binding must own its transactions (inside this one it would take its own change for a
      // remote one), so the headless editor works on a copy and the difference is applied here.
      const copy = bindLoadedState(Y.encodeStateAsUpdate(document));
      const threadChanges = watchThreadChanges(copy.doc);
      try {
        const before = Y.encodeStateVector(copy.doc);
        result = { value: change(copy) };
        Y.applyUpdate(document, Y.encodeStateAsUpdate(copy.doc, before));
      } finally {
        threads = threadChanges();
        copy.dispose();
        copy.doc.destroy();
      }
    });
    if (result === null) throw new Error("the live edit did not run");
    await recordThreadSummaries(documentId, threads);
    return (result as { value: T }).value;
  } finally {
    await connection.disconnect();
  }
}
