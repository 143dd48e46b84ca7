import {
  createYjsBinding,
  type Provider,
  syncLexicalUpdateToYjs,
  syncYjsChangesToLexical,
} from "@lexical/yjs";
import { $getRoot, type LexicalEditor, type SerializedEditorState, SKIP_COLLAB_TAG } from "lexical";
import * as Y from "yjs";
import { registerTextControlFilter } from "./content-input.ts";
import { createDocumentEditor } from "./document-editor.ts";

/**
 * The Yjs side of a document: Lexical's v1 binding (`@lexical/yjs`, the binding behind
 * `CollaborationPlugin`) keeps the root in a `Y.XmlText` named "root". Browsers, the server and
 * tests must all use this one binding, or they would read different shared types.
 */
export const YJS_ROOT_NAME = "root";

/**
 * The shared map recording which write tool calls have run (key `runId:toolCallId`, value the
 * call's result), written in the same update as the call's edit by whoever ran it — a tab or the
 * server — so no other executor runs it again.
 */
export const AGENT_CALLS_ROOT_NAME = "agentCalls";

/**
 * The shared map of people's decisions on runs' suggestions, kept until the run's next tool call
 * tells its model (suggestion-outcomes.ts).
 */
export const SUGGESTION_OUTCOMES_ROOT_NAME = "suggestionOutcomes";

/**
 * The shared map of the latest decision on each suggestion (key: its id), by which a copy learns
 * that an opposite decision made at the same moment elsewhere won over its own (concurrent-decisions.ts).
 */
export const SUGGESTION_DECISIONS_ROOT_NAME = "suggestionDecisions";

/** The binding id every copy uses (it keys the binding's doc map; the browser's plugin uses the document id). */
const BINDING_ID = "coauthor-document";

/**
 * A provider that is never connected: the binding only reads its awareness when it syncs cursors,
 * which a headless editor has none of.
 */
const headlessProvider: Provider = {
  awareness: {
    getLocalState: () => null,
    getStates: () => new Map(),
    off: () => undefined,
    on: () => undefined,
    setLocalState: () => undefined,
    setLocalStateField: () => undefined,
  },
  connect: () => undefined,
  disconnect: () => undefined,
  off: () => undefined,
  on: () => undefined,
};

export type BoundDocumentEditor = {
  editor: LexicalEditor;
  doc: Y.Doc;
  /** Stops syncing the editor and the Yjs document (both stay usable on their own). */
  dispose: () => void;
};

/**
 * A headless document editor (block ids, the document's nodes) bound both ways to a new Yjs
 * document: changes to the Yjs document reach the editor, the editor's updates reach the Yjs
 * document. `initial` (a Yjs update) is applied after binding, so the binding sees it as changes —
 * it syncs only changes. Used by the server (seeding, conversion, deriving JSON and Markdown) and
 * by tests that speak the sync protocol.
 */
export function bindDocumentEditor(initial?: Uint8Array): BoundDocumentEditor {
  const doc = new Y.Doc();
  const editor = createDocumentEditor();
  // The headless editor starts with one empty paragraph; the Yjs document is the truth, so start empty.
  editor.update(() => $getRoot().clear(), { discrete: true, tag: SKIP_COLLAB_TAG });
  const binding = createYjsBinding({ editor, id: BINDING_ID, doc, docMap: new Map([[BINDING_ID, doc]]) });
  const shared = binding.root.getSharedType();
  const onYjsChanges = (events: Array<Y.YEvent<Y.XmlText>>, transaction: Y.Transaction) => {
    if (transaction.origin !== binding) syncYjsChangesToLexical(binding, headlessProvider, events, false);
  };
  shared.observeDeep(onYjsChanges);
  const unregister = editor.registerUpdateListener((update) => {
    if (update.tags.has(SKIP_COLLAB_TAG)) return;
    syncLexicalUpdateToYjs(
      binding,
      headlessProvider,
      update.prevEditorState,
      update.editorState,
      update.dirtyElements,
      update.dirtyLeaves,
      update.normalizedNodes,
      update.tags,
    );
  });
  if (initial) {
    Y.applyUpdate(doc, initial);
    flush(editor);
  }
  return {
    editor,
    doc,
    dispose: () => {
      shared.unobserveDeep(onYjsChanges);
      unregister();
    },
  };
}

/**
 * Commits pending updates now (the headless editor otherwise commits in a microtask), as a tab's
 * microtask would: by reading, which commits what is pending as it is. A discrete update instead
 * joined the pending one — another copy's changes, applied with transforms skipped — and ran the
 * node transforms on them in Lexical only; tagged as collaboration, the result never reached Yjs
 * (block ids drifted, adjacent lists merged in this copy only: found by the editing model test).
 */
export function flush(editor: LexicalEditor): void {
  editor.read(() => undefined);
}

/** The Yjs update that holds `state` (a serialized Lexical state) as a fresh document, for seeding and conversion. */
export function yjsUpdateFromState(state: string | SerializedEditorState): Uint8Array {
  const bound = bindDocumentEditor();
  bound.editor.setEditorState(bound.editor.parseEditorState(state));
  flush(bound.editor);
  bound.dispose();
  const update = Y.encodeStateAsUpdate(bound.doc);
  bound.doc.destroy();
  return update;
}

/** The Yjs update of a new document: Markdown content, or one empty paragraph (with its block id). */
export function yjsUpdateFromMarkdown(markdown: string): Uint8Array {
  const editor = createDocumentEditor({ markdown });
  return yjsUpdateFromState(editor.getEditorState().toJSON());
}

/** The serialized Lexical state held by a Yjs document update (or the merged updates of one). */
export function stateFromYjsUpdate(update: Uint8Array): SerializedEditorState {
  const bound = bindDocumentEditor(update);
  const state = bound.editor.getEditorState().toJSON();
  bound.dispose();
  bound.doc.destroy();
  return state;
}

/** Origin of the updates a mirror copies into its own document (so it never sends them back). */
const FROM_SHARED = Symbol("coauthor.mirror.from-shared");

/**
 * A headless document editor on a mirror of `shared`: it starts with everything `shared` holds,
 * takes every later change of `shared`, and its own edits reach `shared` as one transaction each
 * with `origin`. The browser runs the agent's tools on such an editor: the agent edits the live
 * document as a participant of its own, so its edits sync to every copy but never land on the
 * writer's undo stack (Yjs' undo manager tracks only the page editor's own origin). Its text is
 * kept free of forbidden controls like the page's: the sync server would refuse an edit holding
 * one and close the writer's copy with it.
 */
export function bindMirroredEditor(shared: Y.Doc, origin: string | symbol): BoundDocumentEditor {
  const mirror = bindDocumentEditor(Y.encodeStateAsUpdate(shared));
  const unregisterFilter = registerTextControlFilter(mirror.editor);
  const fromShared = (update: Uint8Array, updateOrigin: unknown) => {
    if (updateOrigin !== origin) Y.applyUpdate(mirror.doc, update, FROM_SHARED);
  };
  const toShared = (update: Uint8Array, updateOrigin: unknown) => {
    if (updateOrigin !== FROM_SHARED) Y.applyUpdate(shared, update, origin);
  };
  shared.on("update", fromShared);
  mirror.doc.on("update", toShared);
  return {
    editor: mirror.editor,
    doc: mirror.doc,
    dispose: () => {
      shared.off("update", fromShared);
      mirror.doc.off("update", toShared);
      unregisterFilter();
      mirror.dispose();
      mirror.doc.destroy();
    },
  };
}
