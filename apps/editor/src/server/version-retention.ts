// Which automatic versions the retention sweep thins: named versions are kept for good; automatic
// ones (around runs, before restores) all for VERSION_KEEP_ALL_DAYS, then the newest of each day
// until VERSION_KEEP_DAILY_DAYS, then the newest of each week. Pure, with the clock passed in.

const DAY_MS = 86_400_000;

export interface VersionRetention {
  /** Every automatic version younger than this is kept. */
  keepAllDays: number;
  /** Then one a day (the day's newest) until this age; one a week after it. */
  keepDailyDays: number;
}

export interface StoredVersion {
  id: number;
  documentId: string;
  named: boolean;
  createdAt: Date;
}

/** The ids of the versions `policy` lets go at `now` (per document: buckets never span two). */
export function versionsToThin(versions: StoredVersion[], now: Date, policy: VersionRetention): number[] {
  const keptBucket = new Set<string>();
  const doomed: number[] = [];
  // Newest first: the first version seen in a bucket is the one kept.
  const newestFirst = [...versions].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  for (const version of newestFirst) {
    const ageDays = (now.getTime() - version.createdAt.getTime()) / DAY_MS;
    if (version.named || ageDays < policy.keepAllDays) continue;
    const day = Math.floor(version.createdAt.getTime() / DAY_MS);
    // Day 0 of the epoch was a Thursday: weeks counted from it are whole weeks all the same.
    const bucket = ageDays < policy.keepDailyDays ? `d${day}` : `w${Math.floor(day / 7)}`;
    const key = `${version.documentId}:${bucket}`;
    if (keptBucket.has(key)) doomed.push(version.id);
    else keptBucket.add(key);
  }
  return doomed;
}
