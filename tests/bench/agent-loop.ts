// Agent-loop figures measured with the headless client against the real server.
import { createDocumentEditor } from "@coauthor/tools";
import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { percentile, round } from "./stats.ts";

/** POST → first frame and → first text-delta, cold (first run) and warm. */
export async function firstFrame(client: CoauthorClient, warmRuns: number) {
  const documentId = await client.createDocument("Benchmark.");
  const samples: { frame: number; delta: number }[] = [];
  for (let i = 0; i <= warmRuns; i++) {
    const started = performance.now();
    let frame = 0;
    let delta = 0;
    await client.runAgent(documentId, "write 3 words", {
      onEvent: (event) => {
        frame ||= performance.now() - started;
        if (event.type === "text-delta") delta ||= performance.now() - started;
        return undefined;
      },
    });
    samples.push({ frame, delta });
  }
  const warm = samples.slice(1);
  return {
    coldFirstFrameMs: round(samples[0]?.frame ?? Number.NaN),
    coldFirstDeltaMs: round(samples[0]?.delta ?? Number.NaN),
    warmFirstFrameMedianMs: round(
      percentile(
        warm.map((s) => s.frame),
        50,
      ),
    ),
    warmFirstDeltaMedianMs: round(
      percentile(
        warm.map((s) => s.delta),
        50,
      ),
    ),
    warmFirstDeltaP95Ms: round(
      percentile(
        warm.map((s) => s.delta),
        95,
      ),
    ),
  };
}

/** Callback posted → next tool-call frame, over a run of `calls` tool calls. */
export async function toolRoundTrip(client: CoauthorClient, calls: number) {
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();
  let postedAt = 0;
  const trips: number[] = [];
  const run = await client.runAgent(documentId, `count to ${calls}`, {
    editor,
    onEvent: (event) => {
      if (event.type === "tool-call" && postedAt) trips.push(performance.now() - postedAt);
      return undefined;
    },
    answer: async (event, ed) => {
      const { runEditorTool } = await import("@coauthor/tools");
      const result = await runEditorTool(ed, event.toolName, event.input);
      postedAt = performance.now();
      return result;
    },
  });
  if (run.events.at(-1)?.type !== "finish") throw new Error(`run ${run.runId} did not finish`);
  return {
    calls,
    medianMs: round(percentile(trips, 50)),
    p95Ms: round(percentile(trips, 95)),
  };
}

/** A model that emits `words` deltas as fast as it can: deltas/s delivered. */
export async function textThroughput(client: CoauthorClient, words: number) {
  const documentId = await client.createDocument();
  let first = 0;
  let last = 0;
  let received = "";
  let frames = 0;
  await client.runAgent(documentId, `write ${words} words`, {
    onEvent: (event) => {
      if (event.type !== "text-delta") return undefined;
      first ||= performance.now();
      last = performance.now();
      received += event.delta;
      frames++;
      return undefined;
    },
  });
  const delivered = received.split(/\s+/).filter(Boolean).length;
  const seconds = Math.max(last - first, 1) / 1000;
  return {
    modelDeltas: words,
    delivered,
    sseFrames: frames,
    deltasPerSecond: Math.round(delivered / seconds),
  };
}
