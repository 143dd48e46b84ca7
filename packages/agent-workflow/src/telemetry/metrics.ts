import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

// Prometheus metrics (prom-client). One registry per process, kept on globalThis: the app's
// bundles (routes, the workflow's step handlers) may each load their own copy of this module.

const METRICS = Symbol.for("coauthor.metrics");
const PREFIX = "coauthor_";

// Seconds. A tool round trip is a few ms on one instance and the browser's tool time on top;
// the first text-delta waits on the planner and the model's first words.
const ROUND_TRIP_BUCKETS = [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const FIRST_DELTA_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

export interface CoauthorMetrics {
  registry: Registry;
  /** Agent runs that ended, by outcome (`done`, `cancelled`, `limit`, `timeout`, `failed`). */
  runs: Counter<"outcome">;
  /** Agent runs refused at admission, by why (`user_runs`, `document_runs`, `capacity`). */
  runsRefused: Counter<"reason">;
  /** Tool call announced → its result taken, by how the wait ended. */
  toolRoundTrip: Histogram<"outcome">;
  /** An agent request received → its first text-delta written to the response. */
  firstDelta: Histogram;
  /** Failed attempts of the sync server to store a document's changes, by what (`update`, `document`). */
  collabStoreFailures: Counter<"what">;
}

function createMetrics(): CoauthorMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  return {
    registry,
    runs: new Counter({
      name: `${PREFIX}agent_runs_total`,
      help: "Agent runs that ended, by outcome",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    runsRefused: new Counter({
      name: `${PREFIX}agent_runs_refused_total`,
      help: "Agent runs refused at admission, by reason (capacity: no job slot left on any instance)",
      labelNames: ["reason"],
      registers: [registry],
    }),
    toolRoundTrip: new Histogram({
      name: `${PREFIX}tool_round_trip_seconds`,
      help: "Tool call announced to the browser until its result was taken, by outcome",
      labelNames: ["outcome"],
      buckets: ROUND_TRIP_BUCKETS,
      registers: [registry],
    }),
    firstDelta: new Histogram({
      name: `${PREFIX}agent_first_delta_seconds`,
      help: "Agent request received until its first text-delta was written to the response",
      buckets: FIRST_DELTA_BUCKETS,
      registers: [registry],
    }),
    collabStoreFailures: new Counter({
      name: `${PREFIX}collab_store_failures_total`,
      help: "Failed attempts to store a document's changes (update: appending an update to its log; document: compaction and last-edited), each retried until it succeeds",
      labelNames: ["what"],
      registers: [registry],
    }),
  };
}

/** This process's metrics (created on first use). */
export function metrics(): CoauthorMetrics {
  const holder = globalThis as typeof globalThis & { [METRICS]?: CoauthorMetrics };
  holder[METRICS] ??= createMetrics();
  return holder[METRICS];
}

/**
 * A gauge read when the metrics are scraped (`read` is called then). Registered once per name:
 * a second call with the same name replaces what it reads.
 */
export function observeGauge(name: string, help: string, read: () => number): void {
  const { registry } = metrics();
  const fullName = `${PREFIX}${name}`;
  registry.removeSingleMetric(fullName);
  new Gauge({
    name: fullName,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/** The exposition (Prometheus text format) and its content type. */
export async function scrapeMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
