import * as Y from "yjs";

// Updates another instance received and relayed here through Redis are stored by that instance,
// and by this one too, merged, shortly after (issue #35). The instance that received an update may
// be killed before its append lands, or stopped while the database is unreachable; its copy is then
// gone, and the writer's client does not send the update again to an instance that already has it
// (this one, or a restarted one that got it back from this one). Storing it twice is harmless: Yjs
// applies an update once, whichever rows hold it, and compaction folds the rows into one snapshot.

export interface RelayedUpdatesOptions {
  /** Stores one (merged) update of the document; never rejects (document-saves retries failures). */
  store: (documentId: string, update: Uint8Array) => Promise<void>;
  /** How long relayed updates gather before they are stored as one. */
  delayMs?: number;
}

/** The relayed updates of each open document not stored by this instance yet. */
export class RelayedUpdates {
  private readonly waiting = new Map<
    string,
    { updates: Uint8Array[]; timer: ReturnType<typeof setTimeout> }
  >();
  private readonly store: RelayedUpdatesOptions["store"];
  private readonly delayMs: number;

  constructor(options: RelayedUpdatesOptions) {
    this.store = options.store;
    this.delayMs = options.delayMs ?? 2_000;
  }

  /** Keeps a relayed update; it is stored with the others of its document within `delayMs`. */
  add(documentId: string, update: Uint8Array): void {
    const waiting = this.waiting.get(documentId);
    if (waiting) {
      waiting.updates.push(update);
      return;
    }
    const timer = setTimeout(() => void this.flush(documentId), this.delayMs);
    this.waiting.set(documentId, { updates: [update], timer });
  }

  /** Stores the document's relayed updates now (before it is unloaded). */
  async flush(documentId: string): Promise<void> {
    const waiting = this.waiting.get(documentId);
    if (!waiting) return;
    this.waiting.delete(documentId);
    clearTimeout(waiting.timer);
    const { updates } = waiting;
    await this.store(documentId, updates.length === 1 ? (updates[0] as Uint8Array) : Y.mergeUpdates(updates));
  }

  /** Stores every document's relayed updates now (a stop). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.waiting.keys()].map((documentId) => this.flush(documentId)));
  }
}
