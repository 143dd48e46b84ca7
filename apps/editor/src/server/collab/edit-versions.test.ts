import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EditVersions } from "./edit-versions";

const PAUSE = 1_000;
const INTERVAL = 10_000;

/** An EditVersions on fake timers whose "database" is the list of versions it took. */
function watcher() {
  const taken: Array<{ documentId: string; editors: string[]; at: number }> = [];
  const versions = new EditVersions({
    pauseMs: PAUSE,
    intervalMs: INTERVAL,
    lastTakenAt: async (documentId) =>
      taken.filter((version) => version.documentId === documentId).at(-1)?.at ?? null,
    take: async (documentId, editors) => {
      taken.push({ documentId, editors: [...editors].sort(), at: Date.now() });
    },
  });
  return { versions, taken };
}

describe("versions after a pause in editing", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes one version once editing pauses, naming everyone who edited", async () => {
    const { versions, taken } = watcher();
    versions.noteChange("d1", "alice");
    await vi.advanceTimersByTimeAsync(PAUSE / 2);
    versions.noteChange("d1", "bob");
    versions.noteChange("d1");
    await vi.advanceTimersByTimeAsync(PAUSE - 1);
    // Still editing (Bob's change started the pause again).
    expect(taken).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(taken.map(({ documentId, editors }) => ({ documentId, editors }))).toEqual([
      { documentId: "d1", editors: ["alice", "bob"] },
    ]);
    // Nothing new: no second version.
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(taken).toHaveLength(1);
    versions.stop();
  });

  it("takes at most one per interval: edits right after a version wait for the interval, then are kept", async () => {
    const { versions, taken } = watcher();
    versions.noteChange("d1", "alice");
    await vi.advanceTimersByTimeAsync(PAUSE);
    expect(taken).toHaveLength(1);
    versions.noteChange("d1", "carol");
    await vi.advanceTimersByTimeAsync(PAUSE);
    expect(taken).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(INTERVAL - PAUSE - 1);
    expect(taken).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(taken.map((version) => version.editors)).toEqual([["alice"], ["carol"]]);
    expect((taken[1]?.at ?? 0) - (taken[0]?.at ?? 0)).toBe(INTERVAL);
    versions.stop();
  });

  it("keeps documents apart, and stop() takes nothing more", async () => {
    const { versions, taken } = watcher();
    versions.noteChange("d1", "alice");
    versions.noteChange("d2", "bob");
    await vi.advanceTimersByTimeAsync(PAUSE);
    expect(taken.map(({ documentId, editors }) => [documentId, editors])).toEqual([
      ["d1", ["alice"]],
      ["d2", ["bob"]],
    ]);
    versions.noteChange("d1", "alice");
    versions.stop();
    await vi.advanceTimersByTimeAsync(INTERVAL * 2);
    expect(taken).toHaveLength(2);
  });
});
