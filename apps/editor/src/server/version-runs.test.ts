import { describe, expect, it } from "vitest";
import { type RunSpan, runsBetweenVersions, type VersionMoment } from "./version-runs";

const T0 = Date.parse("2026-11-28T12:00:00Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

function run(runId: string, from: number, to: number | null): RunSpan {
  return {
    runId,
    prompt: `Prompt ${runId}`,
    writer: "Alice",
    createdAt: at(from),
    finishedAt: to === null ? null : at(to),
  };
}

function version(minute: number, runId: string | null = null): VersionMoment {
  return { createdAt: at(minute), runId };
}

const ids = (lists: { runId: string }[][]) => lists.map((list) => list.map((item) => item.runId));

describe("the runs that changed a document between two versions", () => {
  it("names none for runs one after another, each between its own versions", () => {
    // Newest first: After r2, Before r2, After r1, Before r1 (each taken a moment into or after its run).
    const versions = [version(31, "r2"), version(20.1, "r2"), version(11, "r1"), version(0.1, "r1")];
    const runs = [run("r1", 0, 10), run("r2", 20, 30)];
    expect(ids(runsBetweenVersions(versions, runs, null))).toEqual([[], [], [], []]);
  });

  it("names a run still working when a writer saved a version, and one another run's versions overlapped", () => {
    // r1 runs 0–30; r2 starts at 10 and ends at 20; Alice saves "Draft" at 15; r1 is still running.
    const versions = [
      version(31, "r1"), // After r1: since After r2 (21), nothing else ran
      version(21, "r2"), // After r2: r1 ran meanwhile
      version(15), // Draft: r1 and r2 were running
      version(10.1, "r2"), // Before r2: r1 was running
      version(0.1, "r1"), // Before r1
    ];
    const runs = [run("r1", 0, 30), run("r2", 10, 20), run("r3", 40, null)];
    expect(ids(runsBetweenVersions(versions, runs, null))).toEqual([[], ["r1"], ["r1", "r2"], ["r1"], []]);
  });

  it("a run still going counts until it ends; a run before the oldest listed version's window is left out", () => {
    const versions = [version(50), version(45)];
    const runs = [run("old", 0, 5), run("going", 40, null)];
    expect(ids(runsBetweenVersions(versions, runs, at(30)))).toEqual([["going"], ["going"]]);
    expect(runsBetweenVersions(versions, runs, at(30))[0]).toEqual([
      { runId: "going", prompt: "Prompt going", writer: "Alice" },
    ]);
  });
});
