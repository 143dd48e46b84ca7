// The real agent loop, driven by the headless client exactly as the browser does.
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { coldAndWarm, percentile, round } from "./stats.ts";

/** POST → first text-delta: cold (the first run after start), then warm (see `coldAndWarm`). */
export async function firstDelta(client: CoauthorClient, warmRuns: number, warmUpRuns?: number) {
  const documentId = await client.createDocument("Benchmark.");
  return coldAndWarm(
    async () => {
      const started = performance.now();
      let delta = 0;
      await client.runAgent(documentId, "write 3 words", {
        onEvent: (event) => {
          if (event.type === "text-delta") delta ||= performance.now() - started;
          return undefined;
        },
      });
      return delta;
    },
    warmRuns,
    warmUpRuns,
  );
}

/** One run-length measurement; `note` says why a figure is missing or partial. */
export interface TripResult {
  calls: number;
  medianMs: number;
  p95Ms: number;
  /** Tool calls answered before the run ended or was stopped. */
  reached: number;
  seconds: number;
  /** Median of the last 10 round trips taken (shows growth when a run was stopped). */
  last10MedianMs: number;
  note?: string;
}

/**
 * Callback posted → next tool-call frame received, in one run of `calls` tool
 * calls. A run that has not finished within `budgetMs` is stopped (the writer's
 * Stop) and reported with what it reached: a long run on the local world slows
 * down with its length, and the benchmark must end in bounded time.
 */
export async function toolRoundTrip(client: CoauthorClient, calls: number, budgetMs = 150_000) {
  const documentId = await client.createDocument();
  let postedAt = 0;
  const trips: number[] = [];
  const started = performance.now();
  let overBudget = false;
  let answered = 0;
  const driven = client.runAgent(documentId, `count to ${calls}`, {
    editor: createDocumentEditor(),
    onEvent: (event) => {
      if (event.type === "tool-call" && postedAt) trips.push(performance.now() - postedAt);
      if (!overBudget && performance.now() - started > budgetMs) {
        overBudget = true;
        return "stop";
      }
      return undefined;
    },
    answer: async (event, editor) => {
      const result = await runEditorTool(editor, event.toolName, event.input);
      answered++;
      postedAt = performance.now();
      return result;
    },
  });
  // The server may also fall silent (no frame on which to stop): give up on the stream then.
  const silent = new Promise<"silent">((resolve) =>
    setTimeout(() => resolve("silent"), budgetMs + 30_000).unref(),
  );
  const run = await Promise.race([driven, silent]);
  driven.catch(() => undefined);
  const seconds = round((performance.now() - started) / 1000);
  const taken = trips.slice();
  const result: TripResult = {
    calls,
    medianMs: round(percentile(taken, 50)),
    p95Ms: round(percentile(taken, 95)),
    reached: answered,
    seconds,
    last10MedianMs: round(percentile(taken.slice(-10), 50)),
  };
  const last = run === "silent" ? undefined : run.events.at(-1);
  if (run === "silent" || overBudget || last?.type !== "finish" || last.status !== "done") {
    const why =
      run === "silent"
        ? `no frame for 30 s after the ${budgetMs / 1000} s budget`
        : overBudget
          ? `stopped at the ${budgetMs / 1000} s budget`
          : last?.type === "error"
            ? `${last.code}: ${last.message}`
            : last?.type === "finish"
              ? `finished ${last.status}`
              : "stream ended early";
    result.note = `not finished: ${why} after ${result.reached} of ${calls} tool calls (${seconds} s; last 10 round trips median ${result.last10MedianMs} ms)`;
    // A partial median is not the figure asked for: report it beside the note, not as the figure.
    result.medianMs = Number.NaN;
    result.p95Ms = Number.NaN;
  }
  return { ...result, trips };
}

/** A model emitting `words` deltas as fast as it can: deltas/s delivered and emit → arrival delay. */
export async function textThroughput(client: CoauthorClient, words: number) {
  const documentId = await client.createDocument();
  let first = 0;
  let last = 0;
  const delays: number[] = [];
  let frames = 0;
  const posted = performance.now();
  await client.runAgent(documentId, `write ${words} timed words`, {
    onEvent: (event) => {
      if (event.type !== "text-delta") return undefined;
      const now = performance.now();
      first ||= now;
      last = now;
      frames++;
      const arrived = Date.now();
      for (const word of event.delta.split(/\s+/)) if (word) delays.push(arrived - Number(word));
      return undefined;
    },
  });
  // Delivered within the stream: from the first delta frame to the last one (at least one frame time).
  const seconds = Math.max(last - first, 1) / 1000;
  // From the POST to the last delta: a lower bound that also holds when everything came in one frame.
  const fromPost = Math.round(delays.length / (Math.max(last - posted, 1) / 1000));
  return {
    deltas: delays.length,
    sseFrames: frames,
    deltasPerSecond: frames >= 2 ? Math.round(delays.length / seconds) : Number.NaN,
    deltasPerSecondFromPost: fromPost,
    emitToArrivalP95Ms: round(percentile(delays, 95)),
    ...(frames < 2
      ? {
          note: `all ${delays.length} deltas arrived in ${frames} SSE frame(s): no delivery rate within the stream; ${fromPost}/s counted from the POST`,
        }
      : {}),
  };
}
