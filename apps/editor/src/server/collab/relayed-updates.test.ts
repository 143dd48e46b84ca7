import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { RelayedUpdates } from "./relayed-updates";

/** An update that writes `text` into a document of its own. */
function keystroke(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getText("t").insert(0, text);
  return Y.encodeStateAsUpdate(doc);
}

/** The letters the stored updates hold, applied as the server would load them. */
function lettersOf(stored: Uint8Array[]): string[] {
  const doc = new Y.Doc();
  for (const update of stored) Y.applyUpdate(doc, update);
  return doc.getText("t").toString().split("").sort();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("updates relayed from another instance", () => {
  it("are stored here too, each document's merged into one append, once they have gathered for the delay", async () => {
    const stored = new Map<string, Uint8Array[]>();
    const relayed = new RelayedUpdates({
      store: async (documentId, update) => {
        stored.set(documentId, [...(stored.get(documentId) ?? []), update]);
      },
      delayMs: 2_000,
    });
    relayed.add("doc-1", keystroke("a"));
    await vi.advanceTimersByTimeAsync(1_000);
    relayed.add("doc-1", keystroke("b"));
    relayed.add("doc-2", keystroke("x"));
    await vi.advanceTimersByTimeAsync(999);
    expect(stored.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(stored.get("doc-1")).toHaveLength(1);
    expect(lettersOf(stored.get("doc-1") ?? [])).toEqual(["a", "b"]);
    expect(stored.has("doc-2")).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lettersOf(stored.get("doc-2") ?? [])).toEqual(["x"]);
    // Nothing is stored twice by this instance.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stored.get("doc-1")).toHaveLength(1);
  });

  it("are stored at once when their document is unloaded or the instance stops", async () => {
    const stored: string[] = [];
    const relayed = new RelayedUpdates({
      store: async (documentId, update) => {
        stored.push(`${documentId}:${lettersOf([update]).join("")}`);
      },
    });
    relayed.add("doc-1", keystroke("a"));
    relayed.add("doc-2", keystroke("b"));
    relayed.add("doc-3", keystroke("c"));
    await relayed.flush("doc-1");
    expect(stored).toEqual(["doc-1:a"]);
    await relayed.flushAll();
    expect(stored.sort()).toEqual(["doc-1:a", "doc-2:b", "doc-3:c"]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stored).toHaveLength(3);
  });
});
