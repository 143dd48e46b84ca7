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
