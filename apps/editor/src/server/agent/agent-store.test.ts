import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// A turns step's progress on a real embedded database (PGlite in a throwaway folder, migrated
// like the app's): the plan decision is written once and kept by the segment's later saves.
process.env.COAUTHOR_DATA_DIR = mkdtempSync(join(tmpdir(), "coauthor-agent-store-"));
const { databaseAgentStore: store } = await import("./agent-store");

const planning = { plan: { steps: ["outline", "write"] }, firstId: 3, nextId: 5 };

describe("saved progress", () => {
  it("keeps a segment's plan decision across the saves that leave it out", async () => {
    await store.saveProgress("run-a", 0, { phase: "tools", n: 1 }, { from: 0, items: [] }, planning);
    await store.saveProgress("run-a", 0, { phase: "model", n: 2 }, { from: 0, items: [{ role: "user" }] });
    await store.saveProgress("run-a", 0, { phase: "tools", n: 3 }, { from: 1, items: [] });
    expect(await store.loadProgress("run-a")).toEqual({
      segment: 0,
      state: { phase: "tools", n: 3 },
      messages: [{ role: "user" }],
      planning,
    });
  });

  it("drops it when the run's next segment saves, and takes that segment's own", async () => {
    await store.saveProgress("run-b", 0, { n: 1 }, { from: 0, items: [] }, planning);
    await store.saveProgress("run-b", 1, { n: 2 }, { from: 0, items: [{ role: "assistant" }] });
    expect(await store.loadProgress("run-b")).toEqual({
      segment: 1,
      state: { n: 2 },
      messages: [{ role: "assistant" }],
    });
    const next = { plan: null, firstId: 9, nextId: 9 };
    await store.saveProgress("run-b", 2, { n: 3 }, { from: 0, items: [] }, next);
    await store.saveProgress("run-b", 2, { n: 4 }, { from: 0, items: [] });
    expect(await store.loadProgress("run-b")).toMatchObject({ segment: 2, state: { n: 4 }, planning: next });
  });
});
