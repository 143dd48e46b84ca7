// The naive Workflow DevKit loop on the same server (COAUTHOR_BENCH=1): one
// step per frame, one write() per delta, one hook per tool call.
// Why its round trip grows with the run's length (and was 27–44 ms at 30 calls on a quiet
// machine but hundreds of ms at 50): every hook resume and every step end re-runs the workflow
// body from its first event, so call n replays the 2n events before it — each one a JSON file
// the local world reads back — and the whole run costs O(n²). It also runs after the peer and
// the load phases, whose abandoned runs (walked away from at the budget) may still be
// replaying on the same server. WorkflowAgent pays the same replay, plus a model step per turn.
import type { LoopSizes } from "./sizes.ts";
import { coldAndWarm, percentile, round, tripFigure } from "./stats.ts";

interface Frame {
  type: string;
  id: number;
  delta?: string;
  toolCallId?: string;
}

async function drive(baseURL: string, calls: number, deltas: number, budgetMs = 150_000) {
  const started = performance.now();
  // The naive loop has no Stop: past the budget the benchmark walks away from the run.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), budgetMs);
  const response = await fetch(`${baseURL}/api/bench/naive`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ calls, deltas }),
    signal: abort.signal,
  });
  const runId = response.headers.get("x-run-id") ?? "";
  const reader = response.body?.getReader();
  if (!response.ok || !reader) throw new Error(`naive run failed: ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = "";
  let firstFrame = 0;
  let postedAt = 0;
  const trips: number[] = [];
  const delays: number[] = [];
  let deltaStart = 0;
  let deltaEnd = 0;
  let finished = false;
  let answered = 0;
  for (;;) {
    const read = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (read.done || !read.value) break;
    const value = read.value;
    const now = performance.now();
    firstFrame ||= now - started;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split("\n\n");
    buffer = parts.pop() ?? "";
    for (const part of parts) {
      const data = part.split("\n").find((line) => line.startsWith("data: "));
      if (!data) continue;
      const frame = JSON.parse(data.slice(6)) as Frame;
      if (frame.type === "text-delta" && frame.delta) {
        deltaStart ||= now;
        deltaEnd = now;
        delays.push(Date.now() - Number(frame.delta));
      }
      if (frame.type === "finish") finished = true;
      if (frame.type === "tool-call") {
        answered++;
        if (postedAt) trips.push(now - postedAt);
        postedAt = performance.now();
        const posted = await fetch(`${baseURL}/api/bench/naive/callback`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ runId, call: Number(frame.toolCallId) }),
        });
        await posted.arrayBuffer();
      }
    }
  }
  clearTimeout(timer);
  const seconds = round((performance.now() - started) / 1000);
  const note = finished
    ? undefined
    : `not finished: ${abort.signal.aborted ? `stopped at the ${budgetMs / 1000} s budget` : "stream ended early"} after ${answered} of ${calls} tool calls (${seconds} s; last 10 round trips median ${round(percentile(trips.slice(-10), 50))} ms)`;
  return {
    firstFrame,
    trips,
    delays,
    deltaSeconds: Math.max(deltaEnd - deltaStart, 1) / 1000,
    note,
    answered,
    seconds,
  };
}

/** First frame, tool round trips and delta throughput of the naive loop. */
export async function naiveLoop(baseURL: string, loop: LoopSizes, deltas: number, budgetMs = 150_000) {
  // Warmed up as Coauthor's loop is: the same runs before the first frame and the round trips.
  const first = await coldAndWarm(
    async () => (await drive(baseURL, 0, 0)).firstFrame,
    loop.warmRuns,
    loop.warmUpRuns,
  );
  await drive(baseURL, loop.warmUpCalls, 0, budgetMs);
  const trips = [];
  for (const calls of loop.runLengths) {
    const run = await drive(baseURL, calls, 0, budgetMs);
    trips.push(tripFigure(calls, run));
  }
  const text = await drive(baseURL, 0, deltas);
  return {
    firstFrameWarmMedianMs: first.warmMedianMs,
    toolRoundTrip: trips,
    deltasPerSecond: Math.round(text.delays.length / text.deltaSeconds),
    emitToArrivalP95Ms: round(percentile(text.delays, 95)),
  };
}
