// The agent loop's figures on one instance (of the local world or the Postgres world): first
// delta and tool round trips with the server CPU each cost — for Coauthor and for the peer
// (WorkflowAgent).
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { firstDelta, type TripResult, toolRoundTrip } from "./agent-loop.ts";
import { drivePeer, peerFirstDelta } from "./peer.ts";
import { withServerCpu } from "./process-stats.ts";
import type { LoopSizes } from "./sizes.ts";
import { round, tripFigure } from "./stats.ts";
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
export async function coauthorFigures(instance: Instance, loop: LoopSizes, budgetMs: number) {
  const client = await new CoauthorClient(instance.url).signIn();
  const first = await firstDelta(client, loop.warmRuns, loop.warmUpRuns);
  await toolRoundTrip(client, loop.warmUpCalls, budgetMs);
  const trips: CpuTrip[] = [];
  for (const calls of loop.runLengths) {
    trips.push(
      await pooledRuns(instance, calls, loop.tripsPerFigure, async () => {
        const { trips: taken, reached, seconds, note } = await toolRoundTrip(client, calls, budgetMs);
        return { trips: taken, answered: reached, seconds, note };
      }),
    );
  }
  const split = await roundTripSplit(client, loop.splitCalls);
  return { first, trips, split };
}

/** The peer on one instance: first delta, round trips at each length, with CPU. */
export async function peerFigures(instance: Instance, loop: LoopSizes, budgetMs: number) {
  const first = await peerFirstDelta(instance.url, loop.warmRuns, loop.warmUpRuns);
  await drivePeer(instance.url, `count to ${loop.warmUpCalls}`, budgetMs);
  const trips: CpuTrip[] = [];
  for (const calls of loop.runLengths) {
    trips.push(
      await pooledRuns(instance, calls, loop.tripsPerFigure, () =>
        drivePeer(instance.url, `count to ${calls}`, budgetMs),
      ),
    );
  }
  return { first, trips };
}

/** What one run of a loop gave: its round trips, the calls answered, how long it took, why it fell short. */
interface RunTrips {
  trips: number[];
  answered: number;
  seconds: number;
  note?: string;
}

/**
 * Runs of `calls` tool calls until they gave `tripsPerFigure` round trips (one run for 50 calls
 * or more in the full bench), measured together: the median and p95 over every trip, the server
 * CPU ÷ every trip: short runs are repeated, so a figure is over all their trips and all their
 * CPU. A run that fell short ends the figure with its note (and no median: a partial one is not it).
 */
async function pooledRuns(
  instance: Instance,
  calls: number,
  tripsPerFigure: number,
  runOnce: () => Promise<RunTrips>,
) {
  const runs = Math.max(1, Math.ceil(tripsPerFigure / Math.max(1, calls - 1)));
  try {
    const taken: RunTrips[] = [];
    const { cpuMs } = await withServerCpu(instance.pids, async () => {
      for (let i = 0; i < runs && !taken.at(-1)?.note; i++) taken.push(await runOnce());
    });
    const pooled: RunTrips = {
      trips: taken.flatMap((run) => run.trips),
      answered: taken.reduce((sum, run) => sum + run.answered, 0),
      seconds: round(taken.reduce((sum, run) => sum + run.seconds, 0)),
      note: taken.find((run) => run.note)?.note,
    };
    return { ...tripFigure(calls, pooled), cpuMsPerTrip: cpuPerTrip(cpuMs, pooled.answered) };
  } catch (error) {
    // A run that cannot finish is a finding, not a crash of the benchmark.
    return missing(calls, (error as Error).message);
  }
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
