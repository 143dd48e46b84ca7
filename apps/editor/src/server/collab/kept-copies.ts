import type { BoundDocumentEditor } from "@coauthor/tools";
import { $setSelection } from "lexical";
import * as Y from "yjs";
import { bindLoadedState } from "./document-health";

// The headless editors the server keeps bound between its edits of a live document (live-edit.ts).
// Binding one means converting the whole Yjs document into Lexical nodes, which a run the server
// executes paid on every tool call; a kept copy only takes in what changed since its last use (the
// live document's update since the copy's state vector). Measured (`cd tests && pnpm bench
// --server-executor`, a co-editor's paragraph between calls): a call takes 33 ms at 10,000 blocks
// against 947 ms binding a new copy each time, 24 ms against 155 ms at 2,000. The price is memory:
// a kept 10,000-block copy holds 86 MB (17 MB at 2,000), hence the small cap.

/** How many copies are kept at once (the least recently used goes first), and for how long unused. */
const MAX_KEPT = 4;
const KEEP_IDLE_MS = 10 * 60_000;

interface Kept {
  copy: BoundDocumentEditor;
  usedAt: number;
}

const kept = new Map<string, Kept>();

/** Every clock of `wanted` is reached in `held` (two state vectors). */
export function reaches(held: Map<number, number>, wanted: Map<number, number>): boolean {
  for (const [client, clock] of wanted) if ((held.get(client) ?? 0) < clock) return false;
  return true;
}

function discard(documentId: string): void {
  const entry = kept.get(documentId);
  if (entry === undefined) return;
  kept.delete(documentId);
  entry.copy.dispose();
  entry.copy.doc.destroy();
}

/** Drops copies unused for KEEP_IDLE_MS, then the least recently used beyond MAX_KEPT. */
function sweep(now: number): void {
  for (const [documentId, entry] of kept) if (now - entry.usedAt > KEEP_IDLE_MS) discard(documentId);
  const byUse = [...kept].sort(([, a], [, b]) => a.usedAt - b.usedAt);
  for (const [documentId] of byUse.slice(0, Math.max(0, byUse.length - MAX_KEPT))) discard(documentId);
}

/**
 * Runs `use` on a headless editor bound to a copy holding exactly `live`'s state: the copy kept for
 * `documentId`, caught up with what changed since its last use, or a new one. A copy is kept only
 * after `use` returned: one whose use threw may hold a change the live document never got (a
 * deletion does not show in a state vector), so it goes; so does one holding anything `live`
 * lacks (the document was loaded again from an older stored state).
 */
export function withKeptCopy<T>(documentId: string, live: Y.Doc, use: (copy: BoundDocumentEditor) => T): T {
  const now = Date.now();
  const entry = kept.get(documentId);
  kept.delete(documentId);
  let copy: BoundDocumentEditor;
  const vectorOf = (doc: Y.Doc) => Y.decodeStateVector(Y.encodeStateVector(doc));
  if (entry !== undefined && reaches(vectorOf(live), vectorOf(entry.copy.doc))) {
    copy = entry.copy;
    Y.applyUpdate(copy.doc, Y.encodeStateAsUpdate(live, Y.encodeStateVector(copy.doc)));
    // The binding turns the update into a pending Lexical update, committed here, so reads see it;
    // and the last use's selection goes: a new copy has none, and the server has no caret to keep.
    copy.editor.update(() => $setSelection(null), { discrete: true });
  } else {
    if (entry !== undefined) {
      entry.copy.dispose();
      entry.copy.doc.destroy();
    }
    copy = bindLoadedState(Y.encodeStateAsUpdate(live));
  }
  let value: T;
  try {
    value = use(copy);
  } catch (error) {
    copy.dispose();
    copy.doc.destroy();
    throw error;
  }
  kept.set(documentId, { copy, usedAt: now });
  sweep(now);
  return value;
}
