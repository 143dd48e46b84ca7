// How big each section's workload is: the full bench (`npm run bench`), `--quick`, or `--smoke`
// (every section on tiny sizes, part of `npm test`: it proves the harness still runs against the
// app, and its figures mean nothing). Every size a section uses comes from here, so a smoke pass
// walks the same code as the full run, only less of it.
import { ROUND_TRIP_WARM_UP_CALLS, WARM_UP_RUNS } from "./stats.ts";

/** How one loop (Coauthor's, the peer's, the naive one) is measured on an instance. */
export interface LoopSizes {
  /** Tool calls per measured run, one round-trip figure each. */
  runLengths: number[];
  /** Warm runs a first-delta figure's median is taken over, after `warmUpRuns` unmeasured ones. */
  warmRuns: number;
  warmUpRuns: number;
  /** Tool calls of the unmeasured run before the round trips (a server's JIT warm-up). */
  warmUpCalls: number;
  /** Round trips a figure is taken over at least (short runs are repeated). */
  tripsPerFigure: number;
  /** Tool calls of the run whose round trips are split (callback route, then the rest). */
  splitCalls: number;
}

/** The workload of every section of the bench. */
export interface BenchSizes {
  /** The physical floor: loopback POSTs, and the frames of the raw SSE stream (also the text throughput's deltas). */
  floor: { posts: number; frames: number };
  agent: LoopSizes & {
    /** Runs held at their first tool call for the memory figure. */
    waitingRuns: number;
    /** The concurrent-load figures: runs at once, by this many users, of this many tool calls, passes. */
    load: { runs: number; users: number; calls: number; passes: number };
    /** The peer's concurrent load: runs at once of this many tool calls. */
    peerLoad: { runs: number; calls: number };
    /** Round trips across two instances: runs of this many calls. */
    crossing: { runs: number; calls: number };
    /** The idle database load: quiet before, then the window counted (ms). */
    idle: { settleMs: number; windowMs: number };
  };
  pipelines: { overheadRuns: number; parallelRuns: number; branchWords: number };
  /** The concurrency table: one pass per entry, of this many simultaneous runs. */
  concurrentRuns: number[];
  /** Editor tools: document sizes (blocks) and timed calls per tool; none leaves the section out. */
  tools: { blocks: number[]; runs: number };
  markdown: { blocks: number; runs: number };
  /** Pending suggestions, one row per entry. */
  suggestions: number[];
  /** Pending suggestions decided in Chromium, one row per entry. */
  browserSuggestions: number[];
  /** Document sizes (blocks) whose version storage is measured, one row per entry. */
  versions: number[];
  /** Comment threads on a document of `blocks` paragraphs, opened `runs` times with and without them. */
  comments: { blocks: number; threads: number; runs: number };
  /** The server executor's call: document sizes (blocks) and calls timed per size. */
  serverExecutor: { blocks: number[]; runs: number };
  /** Runs started at once on one instance, executed by the server and then by tabs, of this many calls. */
  backgroundRuns: { runs: number; calls: number };
  /** The Versions view's list: versions saved on one document, and list calls timed. */
  versionList: { versions: number; samples: number };
  collaboration: {
    clients: number[];
    keystrokes: number;
    agentEdits: number;
    /** Documents opened (one connection each), then connections added to one of them. */
    memoryDocuments: number;
    largeDocumentBlocks: number;
    edits: number;
  };
  home: { documents: number; samples: number };
}

const FULL: BenchSizes = {
  floor: { posts: 500, frames: 5_000 },
  agent: {
    runLengths: [10, 50, 200],
    warmRuns: 10,
    warmUpRuns: WARM_UP_RUNS,
    warmUpCalls: ROUND_TRIP_WARM_UP_CALLS,
    // A run of 10 calls has 9 trips, and a median of 9 moves with whatever else the server did
    // meanwhile (the end of the run before it): 5 runs at 10 calls.
    tripsPerFigure: 45,
    splitCalls: 50,
    // Enough that their memory rises well above the few MB a server's RSS drifts by between reads.
    waitingRuns: 100,
    // Three passes: one pass's p99 is its second-slowest of 200 trips and moves by hundreds of ms
    // with one pause of the machine; the median of three does not.
    load: { runs: 50, users: 10, calls: 5, passes: 3 },
    peerLoad: { runs: 50, calls: 5 },
    // The queue puts each run's step on either instance; all eight on one (no figure for a case)
    // happens in under 1% of bench runs.
    crossing: { runs: 8, calls: 30 },
    idle: { settleMs: 3_000, windowMs: 5_000 },
  },
  pipelines: { overheadRuns: 5, parallelRuns: 3, branchWords: 50 },
  concurrentRuns: [1, 10],
  tools: { blocks: [100, 1_000, 10_000], runs: 40 },
  markdown: { blocks: 10_000, runs: 5 },
  suggestions: [200, 1_000],
  browserSuggestions: [1_000],
  versions: [50, 10_000],
  versionList: { versions: 1_000, samples: 20 },
  comments: { blocks: 500, threads: 1_000, runs: 7 },
  serverExecutor: { blocks: [2_000, 10_000], runs: 5 },
  backgroundRuns: { runs: 20, calls: 10 },
  collaboration: {
    clients: [2, 10, 50],
    keystrokes: 60,
    agentEdits: 20,
    memoryDocuments: 50,
    largeDocumentBlocks: 10_000,
    edits: 10_000,
  },
  home: { documents: 1_000, samples: 20 },
};

const QUICK: BenchSizes = {
  ...FULL,
  agent: { ...FULL.agent, runLengths: [10, 50], warmRuns: 3 },
  tools: { ...FULL.tools, blocks: [] },
  suggestions: [200],
};

// Each section once, on the least that still walks its code: about a minute on a loaded machine.
const SMOKE: BenchSizes = {
  floor: { posts: 10, frames: 50 },
  agent: {
    runLengths: [3],
    warmRuns: 1,
    warmUpRuns: 0,
    warmUpCalls: 2,
    tripsPerFigure: 2,
    splitCalls: 2,
    waitingRuns: 2,
    load: { runs: 2, users: 2, calls: 2, passes: 1 },
    peerLoad: { runs: 2, calls: 2 },
    crossing: { runs: 1, calls: 3 },
    idle: { settleMs: 0, windowMs: 500 },
  },
  pipelines: { overheadRuns: 1, parallelRuns: 1, branchWords: 3 },
  concurrentRuns: [2],
  tools: { blocks: [100], runs: 2 },
  markdown: { blocks: 100, runs: 1 },
  suggestions: [20],
  browserSuggestions: [3],
  versions: [50],
  versionList: { versions: 3, samples: 2 },
  comments: { blocks: 10, threads: 4, runs: 1 },
  serverExecutor: { blocks: [20], runs: 1 },
  backgroundRuns: { runs: 2, calls: 2 },
  collaboration: {
    clients: [2],
    keystrokes: 3,
    agentEdits: 2,
    memoryDocuments: 2,
    largeDocumentBlocks: 100,
    edits: 50,
  },
  home: { documents: 3, samples: 2 },
};

/** Which workload this run measures, from the command line. */
export type BenchMode = "full" | "quick" | "smoke";

/** The mode the flags ask for (`--smoke` wins over `--quick`). */
export function benchMode(argv: readonly string[]): BenchMode {
  if (argv.includes("--smoke")) return "smoke";
  return argv.includes("--quick") ? "quick" : "full";
}

/** The sizes of a mode. */
export function sizesFor(mode: BenchMode): BenchSizes {
  return mode === "smoke" ? SMOKE : mode === "quick" ? QUICK : FULL;
}
