// The peer: the AI SDK's `WorkflowAgent` (@ai-sdk/workflow) on the same server (COAUTHOR_BENCH=1),
// the same offline model and the same browser-side tools, driven the way its docs prescribe:
// the client reads `tool-call` parts from the stream, runs the tool on its editor and posts the
// result, which resumes the hook the tool's `execute` waits on (see apps/editor/src/workflows/bench-peer).
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { z } from "zod";
import { coldAndWarm, percentile, round } from "./stats.ts";

// The parts of the peer's stream the client acts on (the rest it passes over).
const partSchema = z.looseObject({
  type: z.string(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  input: z.unknown().optional(),
});

/** What one driven peer run produced. */
export interface PeerRun {
  firstDeltaMs: number;
  trips: number[];
  /** Posts answered 404 because the tool's hook did not exist yet (posted again at once). */
  retries: number;
  answered: number;
  finished: boolean;
  seconds: number;
  note?: string;
}

/**
 * Posts a tool result until the hook it resumes exists (404 until then), as soon as the previous
 * answer is in: the browser cannot know when the workflow will have created it. Gives up at
 * `deadline` (the run's budget), not sooner: under load one answer alone can take a minute (50
 * runs of the peer keep the server's cores busy replaying), which is slow, not stuck. Returns the
 * number of posts answered 404, or `undefined` when the hook was still missing at the deadline.
 */
async function postResult(
  baseURL: string,
  body: { runId: string; toolCallId: string; result: unknown },
  deadline: number,
) {
  const started = performance.now();
  for (let retries = 0; ; retries++) {
    const posted = await fetch(`${baseURL}/api/bench/peer/callback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await posted.arrayBuffer();
    if (posted.ok) return retries;
    if (posted.status === 404 && performance.now() > deadline) return undefined;
    if (posted.status !== 404)
      throw new Error(
        `peer callback answered ${posted.status} after ${retries} retries, ${Math.round((performance.now() - started) / 1000)} s after the first post`,
      );
  }
}

/** Starts one peer run with `prompt` and drives it to its end like a browser would. */
export async function drivePeer(baseURL: string, prompt: string, budgetMs = 150_000): Promise<PeerRun> {
  const started = performance.now();
  // The peer's loop has no Stop of ours: past the budget the benchmark walks away from the run
  // (cancels its reading of the stream, which ends the read loop below).
  let overBudget = false;
  let walkAway: () => void = () => undefined;
  const timer = setTimeout(() => {
    overBudget = true;
    walkAway();
  }, budgetMs);
  const editor = createDocumentEditor();
  const run: PeerRun = { firstDeltaMs: 0, trips: [], retries: 0, answered: 0, finished: false, seconds: 0 };
  try {
    const response = await fetch(`${baseURL}/api/bench/peer`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt }),
    });
    const runId = response.headers.get("x-run-id") ?? "";
    const reader = response.body?.getReader();
    if (!response.ok || !reader) throw new Error(`peer run failed: ${response.status}`);
    walkAway = () => void reader.cancel().catch(() => undefined);
    if (overBudget) walkAway();
    const decoder = new TextDecoder();
    let buffer = "";
    let postedAt = 0;
    for (;;) {
      const read = await reader.read();
      if (read.done || overBudget) break;
      buffer += decoder.decode(read.value, { stream: true });
      const frames = buffer.split("\n\n");
      buffer = frames.pop() ?? "";
      for (const frame of frames) {
        if (!frame.startsWith("data: ")) continue;
        const part = partSchema.parse(JSON.parse(frame.slice(6)));
        const now = performance.now();
        if (part.type === "text-delta") run.firstDeltaMs ||= now - started;
        if (part.type === "finish") run.finished = true;
        if (part.type !== "tool-call" || !part.toolCallId || !part.toolName) continue;
        if (postedAt) run.trips.push(now - postedAt);
        const input = typeof part.input === "string" ? JSON.parse(part.input) : part.input;
        const result = await runEditorTool(editor, part.toolName, input);
        postedAt = performance.now();
        const body = { runId, toolCallId: part.toolCallId, result };
        const retries = await postResult(baseURL, body, started + budgetMs);
        // Past the budget: the run is left like one whose stream ran over it (its trips so far count).
        if (retries === undefined) {
          overBudget = true;
          walkAway();
          break;
        }
        run.retries += retries;
        run.answered++;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  run.seconds = round((performance.now() - started) / 1000);
  if (!run.finished) {
    run.note = `not finished: ${overBudget ? `stopped at the ${budgetMs / 1000} s budget` : "stream ended early"} after ${run.answered} tool calls (${run.seconds} s; last 10 round trips median ${round(percentile(run.trips.slice(-10), 50))} ms)`;
  }
  return run;
}

/** First delta of the peer on "write 3 words": cold, then warm (see `coldAndWarm`). */
export function peerFirstDelta(baseURL: string, warmRuns: number, warmUpRuns?: number) {
  return coldAndWarm(
    async () => (await drivePeer(baseURL, "write 3 words")).firstDeltaMs,
    warmRuns,
    warmUpRuns,
  );
}

/** `runs` simultaneous peer runs of `calls` tool calls: completion and round-trip tail. */
export async function peerConcurrent(baseURL: string, runs: number, calls: number, budgetMs = 180_000) {
  const started = performance.now();
  const all = await Promise.all(
    Array.from({ length: runs }, () =>
      drivePeer(baseURL, `count to ${calls}`, budgetMs).catch((error: Error) => error),
    ),
  );
  const trips = all.flatMap((run) => (run instanceof Error ? [] : run.trips));
  const failures = all.filter((run) => run instanceof Error || !run.finished);
  return {
    runs,
    completed: runs - failures.length,
    outcomes: failures
      .slice(0, 3)
      .map((run) => (run instanceof Error ? run.message : (run.note ?? "")))
      .join("; "),
    seconds: round((performance.now() - started) / 1000),
    roundTripP50Ms: round(percentile(trips, 50)),
    roundTripP99Ms: round(percentile(trips, 99)),
  };
}
