// The agent loop's figures on one instance (of the local world or the Postgres world): first
// delta and tool round trips with the server CPU each cost — for Coauthor and for the peer
// (WorkflowAgent).
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { firstDelta, type TripResult, toolRoundTrip } from "./agent-loop.ts";
import { drivePeer, peerFirstDelta } from "./peer.ts";
import { withServerCpu } from "./process-stats.ts";
import { ROUND_TRIP_WARM_UP_CALLS, round, tripFigure } from "./stats.ts";
import { roundTripSplit } from "./trip-split.ts";

/** A round-trip figure with the server CPU time per round trip (process CPU ÷ round trips). */
export type CpuTrip = TripResult & { cpuMsPerTrip: number };

/** The instance the single-run figures are taken on: its URL and its processes. */
export interface Instance {
  url: string;
  pids: () => number[];
}

const cpuPerTrip = (cpuMs: number, reached: number) => (reached > 0 ? round(cpuMs / reached) : Number.NaN);

/** Coauthor's loop on one instance: first delta, round trips at each length, with CPU. */
export async function coauthorFigures(
  instance: Instance,
  runLengths: number[],
  warmRuns: number,
  budgetMs: number,
) {
  const client = await new CoauthorClient(instance.url).signIn();
  const first = await firstDelta(client, warmRuns);
  await toolRoundTrip(client, ROUND_TRIP_WARM_UP_CALLS, budgetMs);
  const trips: CpuTrip[] = [];
  for (const calls of runLengths) {
    try {
      const { result, cpuMs } = await withServerCpu(instance.pids, () =>
        toolRoundTrip(client, calls, budgetMs),
      );
      const { trips: _raw, ...trip } = result;
      trips.push({ ...trip, cpuMsPerTrip: cpuPerTrip(cpuMs, trip.reached) });
    } catch (error) {
      // A run that cannot finish is a finding, not a crash of the benchmark.
      trips.push(missing(calls, (error as Error).message));
    }
  }
  const split = await roundTripSplit(client, 50);
  return { first, trips, split };
}

/** The peer on one instance: first delta, round trips at each length, with CPU. */
export async function peerFigures(
  instance: Instance,
  runLengths: number[],
  warmRuns: number,
  budgetMs: number,
) {
  const first = await peerFirstDelta(instance.url, warmRuns);
  await drivePeer(instance.url, `count to ${ROUND_TRIP_WARM_UP_CALLS}`, budgetMs);
  const trips: CpuTrip[] = [];
  for (const calls of runLengths) {
    try {
      const { result, cpuMs } = await withServerCpu(instance.pids, () =>
        drivePeer(instance.url, `count to ${calls}`, budgetMs),
      );
      trips.push({ ...tripFigure(calls, result), cpuMsPerTrip: cpuPerTrip(cpuMs, result.answered) });
    } catch (error) {
      trips.push(missing(calls, (error as Error).message));
    }
  }
  return { first, trips };
}

function missing(calls: number, why: string): CpuTrip {
  return {
    calls,
    medianMs: Number.NaN,
    p95Ms: Number.NaN,
    reached: 0,
    seconds: Number.NaN,
    last10MedianMs: Number.NaN,
    cpuMsPerTrip: Number.NaN,
    note: `not taken: ${why}`,
  };
}
