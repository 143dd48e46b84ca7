import type { Binding } from "@lexical/yjs";
import type { LexicalEditor } from "lexical";
import * as Y from "yjs";
import {
  type BoundDocumentEditor,
  bindDocumentEditor,
  bindMirroredEditor,
  YJS_ROOT_NAME,
} from "../yjs-document.ts";

// The copies of one document the model edits: each person's copy is a headless editor bound to its
// own Yjs document, as a browser tab is, and the agent works on a mirror of the writer's copy (copy
// 0), as the browser's assistant does (collab-session.ts, bindMirroredEditor).

/** The origin of the agent's edits in the writer's Yjs document, as in the browser (collab-session.ts). */
const AGENT_ORIGIN = "coauthor-agent";

/** One person's copy: an editor bound to its own Yjs document, with the browser's undo manager. */
export interface Copy {
  index: number;
  editor: LexicalEditor;
  doc: Y.Doc;
  undo: Y.UndoManager;
}

/**
 * Gives `doc` a fixed client id (Yjs orders concurrent insertions at one place by client id, so a
 * replay must not depend on random ids). Only before the document has made any edit of its own.
 */
function fixClientId(doc: Y.Doc, id: number): void {
  if (doc.store.clients.has(doc.clientID)) throw new Error("the document already made edits of its own");
  doc.clientID = id;
}

function isBindingOf(origin: unknown, editor: LexicalEditor): origin is Binding {
  return typeof origin === "object" && origin !== null && "editor" in origin && origin.editor === editor;
}

/**
 * The browser's undo manager (@lexical/yjs createUndoManager): it tracks the binding's own
 * transactions on the root, so it undoes this copy's edits only, never another copy's or the
 * agent's. Edits join one undo step until `stopCapturing` (the browser groups by time; a replay
 * must not).
 */
function createUndoManager(bound: BoundDocumentEditor): Y.UndoManager {
  const undo = new Y.UndoManager(bound.doc.get(YJS_ROOT_NAME, Y.XmlText), {
    trackedOrigins: new Set([null]),
    captureTimeout: Number.POSITIVE_INFINITY,
  });
  // The binding object is the origin of the editor's transactions, but bindDocumentEditor keeps it.
  bound.doc.on("beforeTransaction", (transaction: Y.Transaction) => {
    if (isBindingOf(transaction.origin, bound.editor)) undo.addTrackedOrigin(transaction.origin);
  });
  return undo;
}

/** A person's copy bound to a document holding `seed`, with the fixed client id `clientId`. */
export function createCopy(index: number, seed: Uint8Array, clientId: number): Copy {
  const bound = bindDocumentEditor(seed);
  fixClientId(bound.doc, clientId);
  return { index, editor: bound.editor, doc: bound.doc, undo: createUndoManager(bound) };
}

/** The agent's editor: a mirror of the writer's document whose edits reach it with the agent's origin. */
export function createAgentEditor(writer: Copy, clientId: number): BoundDocumentEditor {
  const agent = bindMirroredEditor(writer.doc, AGENT_ORIGIN);
  fixClientId(agent.doc, clientId);
  return agent;
}

/**
 * Waits for the next task, so every editor commits what its binding queued from Yjs the way a
 * browser tab does: the binding syncs another copy's change into Lexical as a non-discrete update
 * (transforms skipped), which Lexical commits in a microtask. The headless `flush`
 * (yjs-document.ts) would instead run a discrete update that joins the queued one, so node
 * transforms (block ids) would run on the other copy's change and their result, tagged as
 * collaboration, would never reach Yjs: the copy's ids would drift from its document. A tab never
 * does that between two messages; the model does not either (the drift is reported on its own).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A headless editor bound to a new document that receives `update`, loaded the way a browser tab
 * loads it: the binding's sync from Yjs is committed as queued, without node transforms.
 * `bindDocumentEditor(update)` instead commits it with `flush`, so transforms run on the loaded
 * content (adjacent lists of one type merge, block ids are re-claimed) in Lexical only: reported.
 */
export async function loadDocument(update: Uint8Array): Promise<BoundDocumentEditor> {
  const bound = bindDocumentEditor();
  Y.applyUpdate(bound.doc, update);
  await nextTask();
  return bound;
}
