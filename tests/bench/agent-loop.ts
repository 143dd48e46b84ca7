// The real agent loop, driven by the headless client exactly as the browser does.
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { percentile, round } from "./stats.ts";

/** POST → first text-delta, cold (first run after start) and warm. */
export async function firstDelta(client: CoauthorClient, warmRuns: number) {
  const documentId = await client.createDocument("Benchmark.");
  const samples: number[] = [];
  for (let i = 0; i <= warmRuns; i++) {
    const started = performance.now();
    let delta = 0;
    await client.runAgent(documentId, "write 3 words", {
      onEvent: (event) => {
        if (event.type === "text-delta") delta ||= performance.now() - started;
        return undefined;
      },
    });
    samples.push(delta);
  }
  const warm = samples.slice(1);
  return {
    coldMs: round(samples[0] ?? Number.NaN),
    warmMedianMs: round(percentile(warm, 50)),
    warmP95Ms: round(percentile(warm, 95)),
  };
}

/** Callback posted → next tool-call frame received, in one run of `calls` tool calls. */
export async function toolRoundTrip(client: CoauthorClient, calls: number) {
  const documentId = await client.createDocument();
  let postedAt = 0;
  const trips: number[] = [];
  const run = await client.runAgent(documentId, `count to ${calls}`, {
    editor: createDocumentEditor(),
    onEvent: (event) => {
      if (event.type === "tool-call" && postedAt) trips.push(performance.now() - postedAt);
      return undefined;
    },
    answer: async (event, editor) => {
      const result = await runEditorTool(editor, event.toolName, event.input);
      postedAt = performance.now();
      return result;
    },
  });
  const last = run.events.at(-1);
  if (last?.type !== "finish") {
    const why = last?.type === "error" ? `${last.code}: ${last.message}` : "stream ended early";
    throw new Error(`run ${run.runId} did not finish after ${trips.length + 1} tool calls (${why})`);
  }
  return { calls, medianMs: round(percentile(trips, 50)), p95Ms: round(percentile(trips, 95)), trips };
}

/** A model emitting `words` deltas as fast as it can: deltas/s delivered and emit → arrival delay. */
export async function textThroughput(client: CoauthorClient, words: number) {
  const documentId = await client.createDocument();
  let first = 0;
  let last = 0;
  const delays: number[] = [];
  let frames = 0;
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
  return {
    deltas: delays.length,
    sseFrames: frames,
    deltasPerSecond: Math.round(delays.length / seconds),
    emitToArrivalP95Ms: round(percentile(delays, 95)),
  };
}
