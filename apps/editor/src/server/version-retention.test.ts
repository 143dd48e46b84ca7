import { describe, expect, it } from "vitest";
import { type StoredVersion, versionsToThin } from "./version-retention";

const DAY = 86_400_000;
const NOW = new Date("2026-11-28T12:00:00Z");
const POLICY = { keepAllDays: 30, keepDailyDays: 90 };

function at(
  id: number,
  daysAgo: number,
  hours = 0,
  options: { named?: boolean; documentId?: string } = {},
): StoredVersion {
  return {
    id,
    documentId: options.documentId ?? "doc",
    named: options.named ?? false,
    createdAt: new Date(NOW.getTime() - daysAgo * DAY - hours * 3_600_000),
  };
}

describe("thinning automatic versions", () => {
  it("keeps everything of the last 30 days, and named versions at any age", () => {
    const versions = [
      at(1, 1),
      at(2, 1, 1),
      at(3, 29),
      at(4, 29, 1),
      at(5, 400, 0, { named: true }),
      at(6, 400, 1, { named: true }),
    ];
    expect(versionsToThin(versions, NOW, POLICY)).toEqual([]);
  });

  it("keeps the newest of each day from 30 to 90 days, of each week after", () => {
    const versions = [
      at(1, 40, 1), // same day as 2, older: goes
      at(2, 40, 0),
      at(3, 41, 0),
      at(4, 100, 0),
      at(5, 101, 0), // same week as 4 or 6, older: goes unless its week differs
      at(6, 102, 0),
      at(7, 300, 0),
    ];
    const doomed = versionsToThin(versions, NOW, POLICY);
    expect(doomed).toContain(1);
    expect(doomed).not.toContain(2);
    expect(doomed).not.toContain(3);
    expect(doomed).not.toContain(7);
    // Of three consecutive days past 90, at most one per week survives, at least one is thinned.
    const weekly = [4, 5, 6].filter((id) => !doomed.includes(id));
    expect(weekly.length).toBeGreaterThanOrEqual(1);
    expect(weekly.length).toBeLessThanOrEqual(2);
  });

  it("thins each document on its own", () => {
    const versions = [at(1, 40, 1, { documentId: "a" }), at(2, 40, 0, { documentId: "b" })];
    expect(versionsToThin(versions, NOW, POLICY)).toEqual([]);
  });
});
