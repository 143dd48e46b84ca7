import type { BoundDocumentEditor } from "@coauthor/tools";
import * as Y from "yjs";
import { recordThreadSummaries, type ThreadSummary, watchThreadChanges } from "../comment-summary";
import { bindLoadedState } from "./document-health";
import { reaches, withKeptCopy } from "./kept-copies";
import { loadStoredState } from "./stored-state";
import { getSyncServer, liveDocument } from "./sync-server";

/** How long a server edit waits for the writer's own last changes to reach the live document. */
const WRITER_STATE_WAIT_MS = 5_000;

/** The state vector's clocks are all reached by `doc`. */
function covers(doc: Y.Doc, stateVector: Map<number, number>): boolean {
  return reaches(Y.decodeStateVector(Y.encodeStateVector(doc)), stateVector);
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
 * Resolves once this instance's live copy of `documentId` holds everything `stateVector` names, or
 * after WRITER_STATE_WAIT_MS; at once when the document is not open here (then the writer's
 * socket is on another instance, whose updates reach the stored state through the log).
 */
export function whenLiveHolds(documentId: string, stateVector: Uint8Array): Promise<void> {
  const live = liveDocument(documentId);
  return live === null ? Promise.resolve() : whenCovered(live, Y.decodeStateVector(stateVector));
}

/**
 * Runs `change` on `copy`, a headless editor bound to a copy of the document: its result, the
 * update it made (null: none) and what it left of the comment threads it touched
 * (comment-summary.ts).
 */
function runOn<T>(
  copy: BoundDocumentEditor,
  change: (copy: BoundDocumentEditor) => T,
): { value: T; update: Uint8Array | null; threads: Map<string, ThreadSummary> } {
  const before = Y.encodeStateVector(copy.doc);
  // Yjs emits "update" only for a transaction that added or deleted something.
  let changed = false;
  const noteChange = () => {
    changed = true;
  };
  copy.doc.on("update", noteChange);
  const touchedThreads = watchThreadChanges(copy.doc);
  try {
    const value = change(copy);
    return {
      value,
      update: changed ? Y.encodeStateAsUpdate(copy.doc, before) : null,
      threads: touchedThreads(),
    };
  } finally {
    copy.doc.off("update", noteChange);
  }
}

/** `runOn` a new copy of `state`, dropped after. */
function runOnCopy<T>(state: Uint8Array, change: (copy: BoundDocumentEditor) => T) {
  const copy = bindLoadedState(state);
  try {
    return runOn(copy, change);
  } finally {
    copy.dispose();
    copy.doc.destroy();
  }
}

/**
 * Edits the sync server's live copy of a document from the server (a restore, a comment): `change`
 * runs on a headless editor bound to a copy of the live document, and what it changed is applied
 * to the live document as one update — computed and applied in one synchronous step, so no update
 * slips in between — which reaches every open copy and is stored like anyone's edit. With
 * `after` (a writer's Yjs state vector), waits first for the live document to hold their changes.
 * What the edit did to comment threads is recorded in their summary (comment-summary.ts) before it
 * returns.
 *
 * When this instance does not have the document open, `change` first runs on the stored state: a
 * change that changes nothing there (a refusal) answers without loading the document, so a refused
 * request leaves storage as it was (loading keeps a last good state).
 */
export async function editLiveDocument<T>(
  documentId: string,
  userId: string,
  change: (copy: BoundDocumentEditor) => T,
  after?: Uint8Array,
): Promise<T> {
  if (liveDocument(documentId) === null) {
    const stored = await loadStoredState(documentId);
    if (stored === null) throw new Error(`no document ${documentId}`);
    const coversWriter =
      after === undefined ||
      reaches(Y.decodeStateVector(Y.encodeStateVectorFromUpdate(stored)), Y.decodeStateVector(after));
    if (coversWriter) {
      const dry = runOnCopy(stored, change);
      if (dry.update === null) return dry.value;
    }
  }
  const connection = await getSyncServer().hocuspocus.openDirectConnection(documentId, { userId });
  try {
    const live = connection.document;
    if (live === null) throw new Error(`document ${documentId} is not loaded`);
    if (after !== undefined) await whenCovered(live, Y.decodeStateVector(after));
    let result: { value: T; threads: Map<string, ThreadSummary> } | null = null;
    await connection.transact((document) => {
      // The binding must own its transactions (inside this one it would take its own change for a
      // remote one), so the headless editor works on a copy — the one kept for this document
      // (kept-copies.ts) — and the difference is applied here.
      result = withKeptCopy(documentId, document, (copy) => {
        const { value, update, threads } = runOn(copy, change);
        if (update !== null) Y.applyUpdate(document, update);
        return { value, threads };
      });
    });
    if (result === null) throw new Error("the live edit did not run");
    const done = result as { value: T; threads: Map<string, ThreadSummary> };
    await recordThreadSummaries(documentId, done.threads);
    return done.value;
  } finally {
    await connection.disconnect();
  }
}
