// `node bench/first-delta-spans.ts [runs] [--postgres] [--cold]`: where a first text-delta's time
// goes. Starts a server that exports its traces to a collector here (lib/otlp-collector.ts), drives
// `runs` short runs one after another, and prints, per span name, when it starts and ends after the
// prompt's POST (medians over the runs after the first ten, which warm the server up; with
// `--cold`, the first run's own). Not part of `npm run
// bench`: a tool for reading the path of a run's start before optimising it (the engine's event
// writes, its replay, the step's start, the planner, the model call, the frame write).
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { startOtlpCollector } from "../lib/otlp-collector.ts";
import { BENCH_SERVER_ENV } from "./agent-bench.ts";
import { percentile, round } from "./stats.ts";
import { startToolServer } from "./tool-server.ts";

const WARM_UP = 10;
// `--cold`: the server's first run alone (its cold start), instead of the runs after the warm-up.
const cold = process.argv.includes("--cold");
const runs = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 30);

const collector = await startOtlpCollector();
const env = {
  ...BENCH_SERVER_ENV,
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "200",
};
const { server, dispose } = await startToolServer("spans", env);
const posted: { at: number; firstDeltaMs: number; runId: string }[] = [];
try {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Benchmark.");
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    let firstDeltaMs = 0;
    const run = await client.runAgent(documentId, "write 3 words", {
      onEvent: (event) => {
        if (event.type === "text-delta") firstDeltaMs ||= performance.now() - started;
        return undefined;
      },
    });
    posted.push({ at: performance.timeOrigin + started, firstDeltaMs, runId: run.runId });
  }
  // The batch processor exports every 200 ms: wait for the last runs' spans.
  await new Promise((exported) => setTimeout(exported, 2_000));
} finally {
  await dispose();
  await collector.close();
}

// A span is a run's when it carries the run's id, or (the engine's and Next's own spans carry
// none) when it starts while that run is the only one going: from its POST to its first delta.
const offsets = new Map<string, { start: number[]; end: number[] }>();
const measured = cold ? posted.slice(0, 1) : posted.slice(WARM_UP);
for (const run of measured) {
  const own = collector.spans.filter(
    (span) =>
      span.runId === run.runId ||
      (!span.runId && span.start >= run.at - 1 && span.start <= run.at + run.firstDeltaMs),
  );
  for (const span of own) {
    const seen = offsets.get(span.name) ?? { start: [], end: [] };
    seen.start.push(span.start - run.at);
    seen.end.push(span.end - run.at);
    offsets.set(span.name, seen);
  }
}
const median = (values: number[]) => round(percentile(values, 50));
console.log(
  `first text-delta, median of ${measured.length} runs: ${median(measured.map((r) => r.firstDeltaMs))} ms`,
);
console.log("start (ms)  end (ms)  spans  name (median offsets from the POST)");
for (const [name, { start, end }] of [...offsets].sort((a, b) => median(a[1].start) - median(b[1].start))) {
  console.log(
    `${String(median(start)).padStart(10)}${String(median(end)).padStart(10)}${String(start.length).padStart(7)}  ${name}`,
  );
}
