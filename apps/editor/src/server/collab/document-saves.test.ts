import { log } from "@coauthor/agent-workflow";
import { scrapeMetrics } from "@coauthor/agent-workflow/telemetry";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { countStoreFailure } from "@/server/observability/collab-metrics";
import { DocumentSaves } from "./document-saves";

/** A store that refuses the next `failures` writes the way PostgreSQL refused a NUL, then takes them. */
function flakyStore(failures: number) {
  let left = failures;
  const stored: Uint8Array[] = [];
  const append = vi.fn(async (_documentId: string, update: Uint8Array) => {
    if (left > 0) {
      left--;
      throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
    }
    stored.push(update);
  });
  return { append, stored, failFor: (more: number) => (left = more) };
}

/** An update that writes `text` into a document of its own (a keystroke, as the sync server gets it). */
function keystroke(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getText("t").insert(0, text);
  return Y.encodeStateAsUpdate(doc);
}

/** The texts a stored log holds, read back as the server would load it. */
function textsOf(stored: Uint8Array[]): string[] {
  const doc = new Y.Doc();
  for (const update of stored) Y.applyUpdate(doc, update);
  return doc.getText("t").toString().split("").sort();
}

async function failureCount(what: "update" | "document"): Promise<number> {
  const { body } = await scrapeMetrics();
  const line = body
    .split("\n")
    .find((row) => row.startsWith(`coauthor_collab_store_failures_total{what="${what}"}`));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("saving a document when the store fails", () => {
  it("tells the writers, logs once per streak, counts every failed attempt and retries with backoff until stored", async () => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const store = flakyStore(3);
    const announcements: Array<[string, boolean]> = [];
    const saves = new DocumentSaves({
      append: store.append,
      announce: (documentId, stored) => announcements.push([documentId, stored]),
      countFailure: countStoreFailure,
    });
    const failedBefore = await failureCount("update");

    await saves.append("doc-1", keystroke("a"));
    // The writers' indicator leaves "Saved" at once; the failure is logged with the document id.
    expect(announcements).toEqual([["doc-1", false]]);
    expect(saves.isFailing("doc-1")).toBe(true);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[1]).toMatchObject({ documentId: "doc-1", what: "update" });

    // Typing goes on while the store is down: kept with the others, not written one by one.
    await saves.append("doc-1", keystroke("b"));
    expect(store.append).toHaveBeenCalledTimes(1);

    // Backoff: 500 ms, then 1 s, then 2 s (the third attempt fails, the fourth stores).
    await vi.advanceTimersByTimeAsync(499);
    expect(store.append).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.append).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.append).toHaveBeenCalledTimes(3);
    await saves.append("doc-1", keystroke("c"));
    expect(announcements).toEqual([["doc-1", false]]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(store.append).toHaveBeenCalledTimes(4);

    // Stored, every keystroke of the streak in one write; the writers see "Saved" again.
    expect(textsOf(store.stored)).toEqual(["a", "b", "c"]);
    expect(store.stored).toHaveLength(1);
    expect(announcements).toEqual([
      ["doc-1", false],
      ["doc-1", true],
    ]);
    expect(saves.isFailing("doc-1")).toBe(false);
    expect(errors).toHaveBeenCalledTimes(1);
    expect((await failureCount("update")) - failedBefore).toBe(3);

    // A later failure is a new streak: logged and announced again.
    store.failFor(1);
    await saves.append("doc-1", keystroke("d"));
    expect(errors).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(textsOf(store.stored)).toEqual(["a", "b", "c", "d"]);
    expect(announcements.at(-1)).toEqual(["doc-1", true]);
  });

  it("retries a failed document store (compaction, last edited) too, the latest one only, after the updates", async () => {
    vi.spyOn(log, "error").mockImplementation(() => undefined);
    const order: string[] = [];
    let storeFailures = 2;
    const announcements: boolean[] = [];
    const saves = new DocumentSaves({
      append: async () => {
        order.push("append");
      },
      announce: (_documentId, stored) => announcements.push(stored),
      countFailure: countStoreFailure,
    });
    const failedBefore = await failureCount("document");
    const task = (name: string) => async () => {
      if (storeFailures > 0) {
        storeFailures--;
        throw new Error("connection terminated unexpectedly");
      }
      order.push(name);
    };
    await saves.store("doc-2", task("store 1"));
    expect(announcements).toEqual([false]);
    await saves.store("doc-2", task("store 2"));
    await saves.append("doc-2", keystroke("x"));
    await vi.advanceTimersByTimeAsync(500);
    expect(order).toEqual(["append"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(["append", "store 2"]);
    expect(announcements).toEqual([false, true]);
    expect((await failureCount("document")) - failedBefore).toBe(2);
  });

  it("waits at most the longest delay between attempts, however long the store stays down", async () => {
    vi.spyOn(log, "error").mockImplementation(() => undefined);
    const store = flakyStore(20);
    const saves = new DocumentSaves({
      append: store.append,
      announce: () => undefined,
      countFailure: () => undefined,
      maxRetryMs: 4_000,
    });
    await saves.append("doc-3", keystroke("z"));
    await vi.advanceTimersByTimeAsync(60_000);
    // 500 + 1,000 + 2,000 ms, then every 4 s: 3 + 14 attempts within the minute, and the first.
    expect(store.append.mock.calls.length).toBeGreaterThanOrEqual(17);
    await vi.advanceTimersByTimeAsync(4_000 * 5);
    expect(textsOf(store.stored)).toEqual(["z"]);
    expect(saves.failingDocuments()).toEqual([]);
  });
  it("counts an append that never settles (a query whose database link broke) as failed at its deadline, and stores it with the next attempt", async () => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const stored: Uint8Array[] = [];
    let attempts = 0;
    const announcements: boolean[] = [];
    const saves = new DocumentSaves({
      // The first attempt hangs for good, as postgres.js's did across a reset; later ones store.
      append: (_documentId, update) => {
        attempts++;
        if (attempts === 1) return new Promise<void>(() => undefined);
        stored.push(update);
        return Promise.resolve();
      },
      announce: (_documentId, stored) => announcements.push(stored),
      countFailure: () => undefined,
      attemptDeadlineMs: 5_000,
    });
    const appended = saves.append("doc-4", keystroke("h"));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(saves.isFailing("doc-4")).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await appended;
    // Failed at the deadline: announced, logged with the reason, and kept for the retry.
    expect(saves.isFailing("doc-4")).toBe(true);
    expect(announcements).toEqual([false]);
    expect(String(errors.mock.calls[0]?.[1]?.error)).toContain("did not finish within 5000 ms");
    await vi.advanceTimersByTimeAsync(500);
    expect(textsOf(stored)).toEqual(["h"]);
    expect(announcements).toEqual([false, true]);
  });

  it("counts a document store that never settles as failed at its deadline, and runs it again", async () => {
    vi.spyOn(log, "error").mockImplementation(() => undefined);
    let runs = 0;
    const saves = new DocumentSaves({
      append: async () => undefined,
      announce: () => undefined,
      countFailure: () => undefined,
      attemptDeadlineMs: 5_000,
    });
    const task = () => {
      runs++;
      return runs === 1 ? new Promise<void>(() => undefined) : Promise.resolve();
    };
    const storing = saves.store("doc-5", task);
    await vi.advanceTimersByTimeAsync(5_000);
    await storing;
    expect(saves.isFailing("doc-5")).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(2);
    expect(saves.isFailing("doc-5")).toBe(false);
  });
});

describe("a stop while the store fails", () => {
  it("tries again at once and often, and stores what it held when the store comes back within the deadline", async () => {
    vi.spyOn(log, "error").mockImplementation(() => undefined);
    const store = flakyStore(1);
    const saves = new DocumentSaves({
      append: store.append,
      announce: () => undefined,
      countFailure: () => undefined,
      // The next retry would be in 30 s: a stop cannot wait for it.
      firstRetryMs: 30_000,
    });
    await saves.append("doc-6", keystroke("s"));
    store.failFor(3);
    const drained = saves.drain(Date.now() + 5_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await drained).toEqual(new Map());
    expect(textsOf(store.stored)).toEqual(["s"]);
    expect(saves.isFailing("doc-6")).toBe(false);
  });

  it("returns what is still unstored at the deadline, merged per document, appends under way too", async () => {
    vi.spyOn(log, "error").mockImplementation(() => undefined);
    const saves = new DocumentSaves({
      append: (documentId) =>
        documentId === "doc-7"
          ? Promise.reject(new Error("connection refused"))
          : new Promise<void>(() => undefined),
      announce: () => undefined,
      countFailure: () => undefined,
    });
    await saves.append("doc-7", keystroke("p"));
    await saves.append("doc-7", keystroke("q"));
    // An append whose query has not answered yet (its deadline is 10 s away).
    void saves.append("doc-8", keystroke("r"));
    const drained = saves.drain(Date.now() + 2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    const unstored = await drained;
    expect([...unstored.keys()].sort()).toEqual(["doc-7", "doc-8"]);
    expect(textsOf([unstored.get("doc-7") as Uint8Array])).toEqual(["p", "q"]);
    expect(textsOf([unstored.get("doc-8") as Uint8Array])).toEqual(["r"]);
  });
});
