// Runs in the background on one instance (issue #39): `runs` runs of `calls` tool calls each,
// started at the same moment with **Run in background**, so the server executes every call (at most
// MAX_BACKGROUND_RUNS at a time, each on a headless editor bound to a kept copy of its document).
// Beside them, the peer measured in the same run: the same runs executed by a tab each (the
// headless client answering the calls, as a browser does). Per pass: how many ended done, the
// wall time, a call's time from its announcement to its result on the run's stream (server: queue
// + bound copy + tool + update; tab: the browser round trip), and the instance's peak memory above
// what it held before. Figures, not assertions.
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { RunStream } from "../lib/run-stream.ts";
import { rssBytes } from "./concurrency.ts";
import { percentile, round } from "./stats.ts";

export type RunExecutor = "server" | "tab";

export interface BackgroundRunsRow {
  executor: RunExecutor;
  runs: number;
  completed: number;
  outcomes: string;
  seconds: number;
  callP50Ms: number;
  callP95Ms: number;
  peakRssMB: number;
}

/** Times each call of a run's stream from its announcement to its result. */
function callTimer(into: number[]) {
  const announced = new Map<string, number>();
  return (event: RunEvent) => {
    if (event.type === "tool-call") announced.set(event.toolCallId, performance.now());
    if (event.type !== "tool-result") return;
    const at = announced.get(event.toolCallId);
    if (at !== undefined) into.push(performance.now() - at);
  };
}

/** How a run ended, from its last event: "done", or what it ended with instead. */
function outcomeOf(last: RunEvent | undefined): string {
  if (last?.type === "finish") return last.status === "done" ? "done" : `finish ${last.status}`;
  if (last?.type === "error") return last.code;
  return "stream ended early";
}

async function runInBackground(
  client: CoauthorClient,
  documentId: string,
  prompt: string,
  time: (e: RunEvent) => void,
) {
  const stream = await RunStream.start(client, documentId, prompt, { background: true });
  if (stream.status !== 200) return `HTTP ${stream.status}`;
  const events = await stream.readUntil((event) => {
    time(event);
    return isTerminalEvent(event);
  });
  return outcomeOf(events.at(-1));
}

async function runInTab(
  client: CoauthorClient,
  documentId: string,
  prompt: string,
  time: (e: RunEvent) => void,
) {
  const run = await client.runAgent(documentId, prompt, {
    editor: createDocumentEditor(),
    onEvent: (event) => {
      time(event);
      return undefined;
    },
    answer: (event, editor) => runEditorTool(editor, event.toolName, event.input),
  });
  return run.status === 200 ? outcomeOf(run.events.at(-1)) : `HTTP ${run.status}`;
}

async function pass(
  url: string,
  pids: () => number[],
  executor: RunExecutor,
  runs: number,
  calls: number,
): Promise<BackgroundRunsRow> {
  const client = await new CoauthorClient(url).signIn();
  const documents = await Promise.all(
    Array.from({ length: runs }, () => client.createDocument("Before the run.")),
  );
  const baseline = rssBytes(pids());
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(pids()));
  }, 100);
  const callTimes: number[] = [];
  const started = performance.now();
  let ended: string[];
  try {
    ended = await Promise.all(
      documents.map((documentId) =>
        (executor === "server" ? runInBackground : runInTab)(
          client,
          documentId,
          `count to ${calls}`,
          callTimer(callTimes),
        ).catch((error: Error) => `request failed: ${error.message}`),
      ),
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const outcomes = new Map<string, number>();
  for (const outcome of ended) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  return {
    executor,
    runs,
    completed: outcomes.get("done") ?? 0,
    outcomes: [...outcomes].map(([outcome, n]) => `${n}× ${outcome}`).join(", "),
    seconds: round(seconds),
    callP50Ms: round(percentile(callTimes, 50)),
    callP95Ms: round(percentile(callTimes, 95)),
    peakRssMB: round((peak - baseline) / 1024 / 1024),
  };
}

/** One pass executed by the server (in the background), then the same runs executed by tabs. */
export async function benchBackgroundRuns(
  url: string,
  pids: () => number[],
  { runs, calls }: { runs: number; calls: number },
): Promise<BackgroundRunsRow[]> {
  // Unmeasured first: the first runs on a fresh server pay its warm-up (code loaded and compiled).
  await pass(url, pids, "server", 2, 2);
  await pass(url, pids, "tab", 2, 2);
  return [await pass(url, pids, "server", runs, calls), await pass(url, pids, "tab", runs, calls)];
}

export function printBackgroundRuns(rows: BackgroundRunsRow[]): void {
  console.log(
    "\nRuns in the background: runs started at once on one instance, executed by the server vs by a tab each (peer)",
  );
  console.table(
    rows.map((row) => ({
      "executed by": row.executor === "server" ? "server (Run in background)" : "a tab each (peer)",
      runs: row.runs,
      done: row.completed,
      outcomes: row.outcomes,
      "all done, s": row.seconds,
      "call p50 ms (announced → result)": row.callP50Ms,
      "call p95 ms": row.callP95Ms,
      "peak RSS above idle, MB": row.peakRssMB,
    })),
  );
}
