// The agent loop's table: Coauthor on both worlds beside the peer (WorkflowAgent), the naive
// loop and the physical floor, one row per figure, with the target and Coauthor ÷ peer.
import type { TripResult } from "./agent-loop.ts";
import type { concurrentRuns, loadPasses } from "./concurrency.ts";
import type { crossInstanceTrips } from "./cross-instance.ts";
import type { physicalFloor } from "./floor.ts";
import type { peerConcurrent } from "./peer.ts";
import { round } from "./stats.ts";
import type { CpuTrip } from "./worlds.ts";

type Load = Awaited<ReturnType<typeof loadPasses>>;
type Runs = Awaited<ReturnType<typeof concurrentRuns>>;
type PeerLoad = Awaited<ReturnType<typeof peerConcurrent>>;
/**
 * The slow-model figure: the offline model takes this long before it answers anything, the
 * planner included, as a service takes to its first token.
 */
export const MODEL_FIRST_TOKEN_MS = 100;

type Figures = { first: { coldMs: number; warmMedianMs: number }; trips: CpuTrip[] };
type Split = { callbackRouteMs: number; wakeTurnFrameMs: number };

/** Everything one bench run measured of the agent loop (a world may be missing: not measured). */
export interface AgentResults {
  floor: Awaited<ReturnType<typeof physicalFloor>>;
  runLengths: number[];
  coauthor: { local: Figures & { split: Split }; postgres?: Figures & { split: Split } };
  peer: { local?: Figures; postgres?: Figures };
  naive: { firstFrameWarmMedianMs: number; toolRoundTrip: TripResult[] };
  /** Coauthor's first text-delta (local world) with a model that takes MODEL_FIRST_TOKEN_MS to answer. */
  slowModelFirstDelta?: Figures["first"];
  load: {
    local: { coauthor: Load; peer?: PeerLoad };
    postgres?: { coauthor: Load; peer?: PeerLoad };
    twoInstances?: Load;
  };
  /** Transactions a second two idle instances cost their database (the job queue's polling). */
  idleTransactionsPerSecond?: number;
  /** Round trips with the stream, the result or both on another instance than the step's. */
  crossInstance?: Awaited<ReturnType<typeof crossInstanceTrips>>;
  memory: Runs;
  throughput: { deltasPerSecond: number; emitToArrivalP95Ms: number };
  /** Replay-divergence errors the servers logged (Workflow DevKit; the run is retried). */
  serverLogReplayErrors: { local: number; postgres?: number };
}

const cell = (value: number | undefined) =>
  value === undefined ? "not measured" : Number.isNaN(value) ? "–" : value;
const at = <T extends TripResult>(trips: T[] | undefined, calls: number) =>
  trips?.find((t) => t.calls === calls);
const growth = (trips: TripResult[] | undefined) => {
  const first = at(trips, 10)?.medianMs;
  const last = at(trips, 200)?.medianMs;
  return first === undefined || last === undefined ? undefined : round(last / first);
};
const loadCell = (load: Load | PeerLoad | undefined) => {
  if (!load) return "not measured";
  const figure = `${load.completed}/${load.runs} · ${load.roundTripP50Ms} / ${load.roundTripP99Ms}`;
  return "p99PassesMs" in load ? `${figure} (p99s ${load.p99PassesMs.join(" · ")})` : figure;
};

/** The rows of the agent-loop table. */
export function agentTable(r: AgentResults) {
  const row = (
    figure: string,
    values: {
      local?: number | string;
      postgres?: number | string;
      peerLocal?: number | string;
      peerPostgres?: number | string;
      naive?: number | string;
      floor?: number | string;
    },
    target: string,
  ) => {
    const ours = typeof values.local === "number" ? values.local : Number.NaN;
    const theirs = typeof values.peerLocal === "number" ? values.peerLocal : Number.NaN;
    return {
      figure,
      "Coauthor (local)": values.local ?? "",
      "Coauthor (Postgres)": values.postgres ?? "",
      "peer (local)": values.peerLocal ?? "",
      "peer (Postgres)": values.peerPostgres ?? "",
      naive: values.naive ?? "",
      floor: values.floor ?? "",
      target,
      "Coauthor ÷ peer": ours > 0 && theirs > 0 ? `${round(ours / theirs)}×` : "",
    };
  };
  const { coauthor, peer, naive, floor } = r;
  const crossing = r.crossInstance?.medianMs;
  /** One figure of the same kind for Coauthor and the peer on both worlds ("not measured" when absent). */
  const perWorld = (figure: (figures: Figures | undefined) => number | undefined) => ({
    local: cell(figure(coauthor.local)),
    postgres: cell(figure(coauthor.postgres)),
    peerLocal: cell(figure(peer.local)),
    peerPostgres: cell(figure(peer.postgres)),
  });
  return [
    row(
      "first text-delta, warm median (ms)",
      {
        ...perWorld((f) => f?.first.warmMedianMs),
        naive: naive.firstFrameWarmMedianMs,
        floor: floor.sseFirstFrameMs,
      },
      "≤ 20, below naive",
    ),
    row(
      "first text-delta, cold (ms)",
      perWorld((f) => f?.first.coldMs),
      "",
    ),
    row(
      `first text-delta, model ${MODEL_FIRST_TOKEN_MS} ms to first token, warm median (ms)`,
      { local: cell(r.slowModelFirstDelta?.warmMedianMs) },
      `≤ ${round(naive.firstFrameWarmMedianMs + MODEL_FIRST_TOKEN_MS)} (naive + one model wait)`,
    ),
    ...r.runLengths.map((calls) =>
      row(
        `tool round trip @${calls} calls, median (ms)`,
        {
          ...perWorld((f) => at(f?.trips, calls)?.medianMs),
          naive: cell(at(naive.toolRoundTrip, calls)?.medianMs),
          floor: floor.postRoundTripMedianMs,
        },
        "≤ 10",
      ),
    ),
    row(
      "round trip growth @200 / @10 (×)",
      {
        ...perWorld((f) => growth(f?.trips)),
        naive: cell(growth(naive.toolRoundTrip)),
      },
      "≤ 1.5",
    ),
    ...r.runLengths.map((calls) =>
      row(
        `server CPU per round trip @${calls} calls (ms)`,
        perWorld((f) => at(f?.trips, calls)?.cpuMsPerTrip),
        "≤ 3",
      ),
    ),
    row(
      "round trip @50 split: callback route · 204 → next tool-call (ms)",
      {
        local: `${coauthor.local.split.callbackRouteMs} · ${coauthor.local.split.wakeTurnFrameMs}`,
        postgres: coauthor.postgres
          ? `${coauthor.postgres.split.callbackRouteMs} · ${coauthor.postgres.split.wakeTurnFrameMs}`
          : "not measured",
      },
      "",
    ),
    row(
      "round trip over 2 instances, median: one instance · result crosses · stream crosses · both (ms)",
      {
        postgres: crossing
          ? [crossing.none, crossing.result, crossing.stream, crossing.both].map(cell).join(" · ")
          : "not measured",
      },
      "crossing ≤ one instance + 5",
    ),
    row(
      "2 idle instances: database transactions per second",
      { postgres: cell(r.idleTransactionsPerSecond) },
      "",
    ),
    row(
      "50 runs by 10 users, 1 instance: done · p50 / p99 round trip (ms; Coauthor: median pass of 3)",
      {
        local: loadCell(r.load.local.coauthor),
        postgres: loadCell(r.load.postgres?.coauthor),
        peerLocal: loadCell(r.load.local.peer),
        peerPostgres: loadCell(r.load.postgres?.peer),
      },
      "all done, p99 ≤ 250",
    ),
    row(
      "50 runs by 10 users, 2 instances: done · p50 / p99 round trip (ms; median pass of 3)",
      { postgres: loadCell(r.load.twoInstances) },
      "all done, p99 ≤ 250",
    ),
    row(
      `memory per waiting run, ${r.memory.runs} runs, after GC: live heap (KB) · RSS (MB)`,
      { local: `${cell(r.memory.heapPerWaitingRunKB)} · ${cell(r.memory.rssPerWaitingRunMB)}` },
      "≤ 2 MB",
    ),
    row(
      "text deltas delivered per second",
      { local: r.throughput.deltasPerSecond, floor: floor.sseFramesPerSecond },
      "≥ 10,000",
    ),
    row(
      "delta emit → arrival p95 (ms)",
      { local: r.throughput.emitToArrivalP95Ms, floor: floor.sseEmitToArrivalP95Ms },
      "≤ 25",
    ),
  ];
}

/** Why a figure is missing or partial, one line per run that did not finish. */
export function agentNotes(r: AgentResults): string[] {
  const notes: string[] = [];
  const collect = (who: string, trips: TripResult[] | undefined) => {
    for (const trip of trips ?? []) if (trip.note) notes.push(`${who} @${trip.calls}: ${trip.note}`);
  };
  collect("Coauthor (local)", r.coauthor.local.trips);
  collect("Coauthor (Postgres)", r.coauthor.postgres?.trips);
  collect("peer (local)", r.peer.local?.trips);
  collect("peer (Postgres)", r.peer.postgres?.trips);
  collect("naive (local)", r.naive.toolRoundTrip);
  for (const [who, load] of [
    ["load, Coauthor (local)", r.load.local.coauthor],
    ["load, peer (local)", r.load.local.peer],
    ["load, Coauthor (Postgres)", r.load.postgres?.coauthor],
    ["load, peer (Postgres)", r.load.postgres?.peer],
    ["load, two instances", r.load.twoInstances],
  ] as const) {
    if (load && load.completed < load.runs) notes.push(`${who}: ${load.outcomes}`);
  }
  const cross = r.crossInstance;
  if (cross && Object.values(cross.trips).some((trips) => trips === 0))
    notes.push(
      `round trip over 2 instances: a case without trips (${cross.stepOnStreamInstance} of ${cross.runs} runs had their step on the stream's instance)`,
    );
  const { local, postgres } = r.serverLogReplayErrors;
  if (local || postgres)
    notes.push(`replay-divergence errors in the server logs: local ${local}, Postgres ${postgres ?? "–"}`);
  return notes;
}
