import * as Y from "yjs";
import { AGENT_CALLS_ROOT_NAME, type BoundDocumentEditor, flush } from "./yjs-document.ts";

// The record of the write tool calls that have run, in the shared document (map "agentCalls"):
// whoever runs a call — the writer's tab or the server — records, in the same update as its edit,
// - under `runId:toolCallId`, the call's output: an executor that finds it reuses the output
//   instead of editing again;
// - under `runId:toolCallId#client:from:to`, which of its own Yjs items the edit made (one client's
//   clocks `from` up to `to`). The key itself says it, so it reaches the server intact even when
//   the entry is deleted or the output entry was overwritten by another executor's on the way.
// When two executors ran one call anyway (a tab ran it offline, the server ran it again once the
// tab's lease lapsed, and the tab's edit arrived after), the sync server sees a second edit entry
// for the call arrive and deletes what that execution inserted (`removeSecondExecutions`).

/** The items one execution's edit made: one client's clocks `from` up to (not including) `to`. */
interface CallEdit {
  call: string;
  client: number;
  from: number;
  to: number;
}

/** The output recorded for call `key` (`runId:toolCallId`), or null when no executor has run it. */
export function findCall(doc: Y.Doc, key: string): { output: unknown } | null {
  const calls = doc.getMap<unknown>(AGENT_CALLS_ROOT_NAME);
  return calls.has(key) ? { output: calls.get(key) } : null;
}

/** The next clock of `doc`'s own client: where the items of its next edit begin. */
export function nextClock(doc: Y.Doc): number {
  return Y.getState(doc.store, doc.clientID);
}

const editKey = (edit: CallEdit) => `${edit.call}#${edit.client}:${edit.from}:${edit.to}`;

function parseEditKey(key: string): CallEdit | null {
  const match = /^(.+)#(\d+):(\d+):(\d+)$/.exec(key);
  if (match === null) return null;
  const [client, from, to] = [match[2], match[3], match[4]].map(Number) as [number, number, number];
  if (![client, from, to].every(Number.isSafeInteger) || from > to) return null;
  return { call: match[1] as string, client, from, to };
}

/**
 * Records call `key` in `doc`, in a transaction of `origin`: its output, and the items the edit
 * made in `edited` (the copy the tool ran on) since clock `from`. The copy's editor is committed
 * first, outside the record's transaction, so its last change is in its Yjs document when the range
 * is read and reaches `doc` as its own change (with the copy's origin), ahead of the record.
 */
export function recordCall(
  doc: Y.Doc,
  key: string,
  output: unknown,
  edited: Pick<BoundDocumentEditor, "doc" | "editor">,
  from: number,
  origin?: unknown,
): void {
  flush(edited.editor);
  const to = nextClock(edited.doc);
  const calls = doc.getMap<unknown>(AGENT_CALLS_ROOT_NAME);
  doc.transact(() => {
    calls.set(key, output);
    if (to > from) calls.set(editKey({ call: key, client: edited.doc.clientID, from, to }), true);
  }, origin);
}

/** The map's name as it appears in an update that writes to it (a root names its parent by name). */
const ROOT_NAME_BYTES = new TextEncoder().encode(AGENT_CALLS_ROOT_NAME);

/** Whether `bytes` holds `needle` anywhere. */
function holds(bytes: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0] ?? 0;
  for (
    let at = bytes.indexOf(first);
    at >= 0 && at <= bytes.length - needle.length;
    at = bytes.indexOf(first, at + 1)
  ) {
    let same = true;
    for (let offset = 1; same && offset < needle.length; offset++)
      same = bytes[at + offset] === needle[offset];
    if (same) return true;
  }
  return false;
}

/** The edits of executions `update` records. */
function editsIn(update: Uint8Array): CallEdit[] {
  // Every update a copy sends passes here; most hold no call record. Looking for the map's name
  // first skips decoding them: a 4 MB first sync of a 10,000-block document took 126–378 ms to
  // decode and 3–15 ms to scan (vitest, this machine).
  if (!holds(update, ROOT_NAME_BYTES)) return [];
  const edits: CallEdit[] = [];
  for (const struct of Y.decodeUpdate(update).structs) {
    if (!(struct instanceof Y.Item) || struct.parentSub === null) continue;
    // In a decoded update, an item of a root type names its parent by the root's name.
    const parent: unknown = struct.parent;
    const edit = parent === AGENT_CALLS_ROOT_NAME ? parseEditKey(struct.parentSub) : null;
    if (edit !== null) edits.push(edit);
  }
  return edits;
}

/** Whether `map` holds an edit entry of `edit`'s call by another client (deleted entries count). */
function ranElsewhere(map: Y.Map<unknown>, edit: CallEdit): boolean {
  for (const key of map._map.keys()) {
    const other = parseEditKey(key);
    if (other !== null && other.call === edit.call && other.client !== edit.client) return true;
  }
  return false;
}

/**
 * Deletes, in `doc`, what second executions of a call inserted (`update` was just applied to it):
 * an edit entry in `update` for a call that another executor had recorded an edit of too means the
 * call ran twice; the text and blocks the execution that arrived later inserted go, the first
 * one's stay. Attributes the second execution set are left (both executions set the same ones, and
 * deleting the live one would leave none). Returns how many items it deleted.
 */
export function removeSecondExecutions(doc: Y.Doc, update: Uint8Array, origin: unknown): number {
  const map = doc.getMap<unknown>(AGENT_CALLS_ROOT_NAME);
  const second = editsIn(update).filter((edit) => ranElsewhere(map, edit));
  let deleted = 0;
  if (second.length === 0) return deleted;
  doc.transact((transaction) => {
    for (const edit of second) deleted += deleteInserted(transaction, edit);
  }, origin);
  return deleted;
}

/** Deletes the list content (text, embeds, blocks) among the items of `edit` that are not deleted yet. */
function deleteInserted(transaction: Y.Transaction, edit: CallEdit): number {
  const structs = transaction.doc.store.clients.get(edit.client);
  const last = structs?.at(-1);
  if (last === undefined) return 0;
  const to = Math.min(edit.to, last.id.clock + last.length);
  let deleted = 0;
  for (let clock = edit.from; clock < to; ) {
    const struct = Y.getItemCleanStart(transaction, Y.createID(edit.client, clock));
    if (struct.id.clock + struct.length > to)
      Y.getItemCleanEnd(transaction, transaction.doc.store, Y.createID(edit.client, to - 1));
    if (struct instanceof Y.Item && !struct.deleted && struct.parentSub === null) {
      struct.delete(transaction);
      deleted += 1;
    }
    clock = struct.id.clock + struct.length;
  }
  return deleted;
}
