/** Percentile (nearest rank) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Rounds to 0.1. */
export const round = (value: number) => Math.round(value * 10) / 10;

/**
 * One run-length figure (the shape every loop's round-trip rows share) from a run driven by a
 * client: its round trips, how many tool calls it answered, how long it took and, when it did not
 * finish, why (then the medians are not taken).
 */
export function tripFigure(
  calls: number,
  run: { trips: number[]; answered: number; seconds: number; note?: string },
) {
  return {
    calls,
    medianMs: run.note ? Number.NaN : round(percentile(run.trips, 50)),
    p95Ms: run.note ? Number.NaN : round(percentile(run.trips, 95)),
    reached: run.answered,
    seconds: run.seconds,
    last10MedianMs: round(percentile(run.trips.slice(-10), 50)),
    ...(run.note ? { note: run.note } : {}),
  };
}

/**
 * Runs after a server's first (its cold figure) that warm it up — code compiled and optimised,
 * caches filled — before its warm figures are taken. The naive loop is measured on a server warmed
 * by every figure before it; without these, Coauthor's and the peer's "warm" medians, taken on
 * servers that just started, would still carry their start-up.
 */
export const WARM_UP_RUNS = 5;

/**
 * Tool calls of the run each loop makes before its round trips are measured: the path a round trip
 * takes (routes, claims, model turns) gets a server's JIT warm-up, as the first delta's does.
 * Without it the first measured run reads ~1.5× the steady figure (14.6, 12.3, then 8–10 ms for
 * ten 10-call runs in a row on a fresh server).
 */
export const ROUND_TRIP_WARM_UP_CALLS = 20;

/** Cold (the first run), then, after `warmUpRuns` more, the median and p95 of `warmRuns` runs. */
export async function coldAndWarm(
  runOnce: () => Promise<number>,
  warmRuns: number,
  warmUpRuns = WARM_UP_RUNS,
) {
  const coldMs = round(await runOnce());
  for (let i = 0; i < warmUpRuns; i++) await runOnce();
  const warm: number[] = [];
  for (let i = 0; i < warmRuns; i++) warm.push(await runOnce());
  return { coldMs, warmMedianMs: round(percentile(warm, 50)), warmP95Ms: round(percentile(warm, 95)) };
}
