import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// A turns step's progress on a real embedded database (PGlite in a throwaway folder, migrated
// like the app's): the plan decision is written once and kept by the segment's later saves.
process.env.COAUTHOR_DATA_DIR = mkdtempSync(join(tmpdir(), "coauthor-agent-store-"));
const { databaseAgentStore: store } = await import("./agent-store");

const planning = { plan: { steps: ["outline", "write"] }, firstId: 3, nextId: 5 };

/** A save as a step asks for it: JSON text of its state, its new messages and maybe its decision. */
const progress = (state: unknown, from: number, messages: unknown[], decision?: unknown) => ({
  state: JSON.stringify(state),
  messages: { from, json: JSON.stringify(messages) },
  ...(decision === undefined ? {} : { planning: JSON.stringify(decision) }),
});

describe("saved progress", () => {
  it("keeps a segment's plan decision across the saves that leave it out", async () => {
    await store.saveProgress("run-a", 0, progress({ phase: "tools", n: 1 }, 0, [], planning));
    await store.saveProgress("run-a", 0, progress({ phase: "model", n: 2 }, 0, [{ role: "user" }]));
    await store.saveProgress("run-a", 0, progress({ phase: "tools", n: 3 }, 1, []));
    expect(await store.loadProgress("run-a")).toEqual({
      segment: 0,
      state: { phase: "tools", n: 3 },
      messages: [{ role: "user" }],
      planning,
    });
  });

  it("drops it when the run's next segment saves, and takes that segment's own", async () => {
    await store.saveProgress("run-b", 0, progress({ n: 1 }, 0, [], planning));
    await store.saveProgress("run-b", 1, progress({ n: 2 }, 0, [{ role: "assistant" }]));
    expect(await store.loadProgress("run-b")).toEqual({
      segment: 1,
      state: { n: 2 },
      messages: [{ role: "assistant" }],
    });
    const next = { plan: null, firstId: 9, nextId: 9 };
    await store.saveProgress("run-b", 2, progress({ n: 3 }, 0, [], next));
    await store.saveProgress("run-b", 2, progress({ n: 4 }, 0, []));
    expect(await store.loadProgress("run-b")).toMatchObject({ segment: 2, state: { n: 4 }, planning: next });
  });
});
