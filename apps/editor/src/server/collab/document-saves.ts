import { log } from "@coauthor/agent-workflow";
import * as Y from "yjs";

// Saving never fails silently. The sync server acknowledges an update once it holds it in memory;
// storing it follows. When storing fails (the database is down, refuses a value, a disk is full),
// the changes are kept here and stored again with backoff until they are, the writers are told
// (their save indicator leaves "Saved"), the failure is logged once per streak with the document
// id, and every failed attempt is counted in the metrics. An attempt that has not settled by its
// deadline counts as failed and is retried: a query whose database link broke may never answer
// (issue #35). One that answers late has stored an update twice, which Yjs merges as once.

/** What a store attempt was for (the metrics label). */
export type StoreKind = "update" | "document";

export interface DocumentSavesOptions {
  /** Appends one update to the document's log. */
  append: (documentId: string, update: Uint8Array) => Promise<void>;
  /** Tells the document's copies whether every change they sent is stored. */
  announce: (documentId: string, stored: boolean) => void;
  /** Counts one failed store attempt. */
  countFailure: (kind: StoreKind) => void;
  /** Delay before the first retry, doubled after each failed one up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** How long one store attempt may take before it counts as failed (and is retried). */
  attemptDeadlineMs?: number;
}

/** A store attempt that had not settled by its deadline (it may still land later: harmless). */
export class StoreDeadlineError extends Error {
  constructor(kind: StoreKind, ms: number) {
    super(`storing the ${kind} did not finish within ${ms} ms`);
    this.name = "StoreDeadlineError";
  }
}

/** A document whose changes are not all stored: what is left to store, and the retry under way. */
type Streak = {
  /** Updates not stored yet, oldest first; a retry stores them merged into one (they stay here until it lands). */
  updates: Uint8Array[];
  /** The latest document store (log compaction, last edited) not done yet; a newer one replaces it. */
  store: (() => Promise<void>) | null;
  failedAttempts: number;
  timer: ReturnType<typeof setTimeout> | null;
  retrying: boolean;
};

/** Stores a document's updates and its debounced store, retrying each failure until it succeeds. */
export class DocumentSaves {
  private readonly streaks = new Map<string, Streak>();
  /** Per document, the updates whose first append is under way (not stored yet, not failed yet). */
  private readonly inFlight = new Map<string, Set<Uint8Array>>();
  /** Document stores (compaction, last edited) whose first attempt is under way. */
  private storesUnderWay = 0;
  private readonly options: Required<DocumentSavesOptions>;

  constructor(options: DocumentSavesOptions) {
    this.options = { firstRetryMs: 500, maxRetryMs: 30_000, attemptDeadlineMs: 10_000, ...options };
  }

  /** Whether the document has changes that are not stored yet (they are being retried). */
  isFailing(documentId: string): boolean {
    return this.streaks.has(documentId);
  }

  /** The documents whose changes are not all stored. */
  failingDocuments(): string[] {
    return [...this.streaks.keys()];
  }

  /** Appends `update` to the document's log; on failure keeps it and retries. Never rejects. */
  async append(documentId: string, update: Uint8Array): Promise<void> {
    const streak = this.streaks.get(documentId);
    // While storing fails, new updates wait for the retry (stored with the others, in one write).
    if (streak) {
      streak.updates.push(update);
      return;
    }
    const pending = this.inFlight.get(documentId) ?? new Set<Uint8Array>();
    this.inFlight.set(documentId, pending.add(update));
    try {
      await this.withinDeadline("update", this.options.append(documentId, update));
    } catch (error) {
      this.failed(documentId, "update", error).updates.push(update);
    } finally {
      pending.delete(update);
      if (pending.size === 0 && this.inFlight.get(documentId) === pending) this.inFlight.delete(documentId);
    }
  }

  /**
   * For a stop: retries every document's unstored updates at once, and again every `everyMs`,
   * until all of them are stored, and the appends and stores under way have ended, or `deadline`
   * (a time) has passed. Document stores that failed are not retried: the log has the changes.
   * Returns, per document, what is still not known to be stored, merged: for the next start.
   */
  async drain(deadline: number, everyMs = 250): Promise<Map<string, Uint8Array>> {
    const waiting = () =>
      this.inFlight.size > 0 ||
      this.storesUnderWay > 0 ||
      [...this.streaks.values()].some((streak) => streak.updates.length > 0);
    while (Date.now() < deadline && waiting()) {
      for (const [documentId, streak] of this.streaks) {
        if (streak.timer === null || streak.updates.length === 0) continue;
        clearTimeout(streak.timer);
        void this.retry(documentId, streak);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(everyMs, deadline - Date.now())));
    }
    const unstored = new Map<string, Uint8Array>();
    for (const documentId of new Set([...this.streaks.keys(), ...this.inFlight.keys()])) {
      const updates = [
        ...(this.streaks.get(documentId)?.updates ?? []),
        ...(this.inFlight.get(documentId) ?? []),
      ];
      if (updates.length > 0) unstored.set(documentId, mergedUpdate(updates));
    }
    return unstored;
  }

  /** Runs the document's debounced store (`task`); on failure keeps it and retries. Never rejects. */
  async store(documentId: string, task: () => Promise<void>): Promise<void> {
    const streak = this.streaks.get(documentId);
    if (streak) {
      streak.store = task;
      return;
    }
    this.storesUnderWay++;
    try {
      await this.withinDeadline("document", task());
    } catch (error) {
      this.failed(documentId, "document", error).store = task;
    } finally {
      this.storesUnderWay--;
    }
  }

  /** `attempt`, or a StoreDeadlineError once it has taken longer than the deadline. */
  private async withinDeadline(kind: StoreKind, attempt: Promise<void>): Promise<void> {
    const ms = this.options.attemptDeadlineMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreDeadlineError(kind, ms)), ms);
    });
    try {
      await Promise.race([attempt, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Counts a failure; the first of a streak is logged and announced. Schedules the retry. */
  private failed(documentId: string, kind: StoreKind, error: unknown): Streak {
    this.options.countFailure(kind);
    let streak = this.streaks.get(documentId);
    if (streak === undefined) {
      streak = { updates: [], store: null, failedAttempts: 0, timer: null, retrying: false };
      this.streaks.set(documentId, streak);
      log.error("collab: could not store a document's changes; retrying until they are stored", {
        documentId,
        what: kind,
        error,
      });
      this.options.announce(documentId, false);
    }
    streak.failedAttempts++;
    this.schedule(documentId, streak);
    return streak;
  }

  private schedule(documentId: string, streak: Streak): void {
    if (streak.timer !== null || streak.retrying) return;
    const { firstRetryMs, maxRetryMs } = this.options;
    const delay = Math.min(maxRetryMs, firstRetryMs * 2 ** Math.max(0, streak.failedAttempts - 1));
    streak.timer = setTimeout(() => void this.retry(documentId, streak), delay);
  }

  private async retry(documentId: string, streak: Streak): Promise<void> {
    streak.timer = null;
    if (streak.retrying) return;
    streak.retrying = true;
    // Left in the streak until stored: a stop meanwhile (drain) still finds them.
    const updates = streak.updates.slice();
    let kind: StoreKind = "update";
    try {
      if (updates.length > 0) {
        await this.withinDeadline("update", this.options.append(documentId, mergedUpdate(updates)));
        streak.updates.splice(0, updates.length);
      }
      kind = "document";
      const store = streak.store;
      if (store !== null) {
        await this.withinDeadline("document", store());
        if (streak.store === store) streak.store = null;
      }
    } catch (error) {
      streak.retrying = false;
      this.options.countFailure(kind);
      streak.failedAttempts++;
      log.debug("collab: storing a document's changes failed again", { documentId, what: kind, error });
      this.schedule(documentId, streak);
      return;
    }
    streak.retrying = false;
    // Changes that came in during this retry go with the next one, at once.
    if (streak.updates.length > 0 || streak.store !== null) {
      streak.timer = setTimeout(() => void this.retry(documentId, streak), 0);
      return;
    }
    this.streaks.delete(documentId);
    log.info("collab: a document's changes are stored again", {
      documentId,
      failedAttempts: streak.failedAttempts,
    });
    this.options.announce(documentId, true);
  }
}

function mergedUpdate(updates: Uint8Array[]): Uint8Array {
  return updates.length === 1 ? (updates[0] as Uint8Array) : Y.mergeUpdates(updates);
}
