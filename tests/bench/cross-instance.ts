// The round trip behind a load balancer: two instances on the Postgres world, the writer's stream
// on one, each tool result posted to either in turn. Which instance runs a run's turns step is the
// queue's choice (its log names it), so every trip falls in one of four cases: the stream, the
// result, both or neither on another instance than the step's. The target: a crossing
// costs at most 5 ms over a trip that stays on one instance.
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { AppServer } from "../lib/app-server.ts";
import { oneUserOnEach, stepHostIndex } from "../lib/instances.ts";
import { RunStream } from "../lib/run-stream.ts";
import { percentile, round } from "./stats.ts";

/** Where a trip's two messages went, against the instance that ran the step. */
type Crossing = "none" | "result" | "stream" | "both";

interface Trip {
  toolCallId: string;
  /** The instance the result was posted to. */
  postedTo: number;
  ms: number;
}

/** One run with its stream on instance 0, results posted to instance 0 and 1 in turn. */
async function alternatingRun(servers: AppServer[], calls: number) {
  const clients = await oneUserOnEach(servers);
  const [streamClient] = clients;
  if (!streamClient || clients.length < 2) throw new Error("two instances needed");
  const documentId = await streamClient.createDocument();
  const editor = createDocumentEditor();
  const stream = await RunStream.start(streamClient, documentId, `count to ${calls}`);
  const trips: Trip[] = [];
  let last: { toolCallId: string; postedTo: number; at: number } | undefined;
  let posted = 0;
  for (let event = await stream.next(); event; event = await stream.next()) {
    if (event.type !== "tool-call") continue;
    if (last)
      trips.push({ toolCallId: last.toolCallId, postedTo: last.postedTo, ms: performance.now() - last.at });
    const result = await runEditorTool(editor, event.toolName, event.input);
    const postedTo = posted++ % clients.length;
    const at = performance.now();
    const response = await clients[postedTo]?.callback({
      hookToken: event.hookToken,
      toolCallId: event.toolCallId,
      result,
    });
    await response?.arrayBuffer();
    if (response?.status !== 204)
      throw new Error(`callback to instance ${postedTo} answered ${response?.status}`);
    last = { toolCallId: event.toolCallId, postedTo, at };
  }
  return { runId: stream.runId, trips };
}

/**
 * Round-trip medians by crossing, over `runs` runs of `calls` tool calls (runs land on either
 * instance's step at random; more runs make every case likelier to be seen).
 */
export async function crossInstanceTrips(servers: AppServer[], runs: number, calls: number) {
  const byCrossing: Record<Crossing, number[]> = { none: [], result: [], stream: [], both: [] };
  let stepOnStreamInstance = 0;
  for (let i = 0; i < runs; i++) {
    const { runId, trips } = await alternatingRun(servers, calls);
    const hosts = new Set<number>();
    for (const trip of trips) {
      const host = stepHostIndex(servers, runId, trip.toolCallId);
      if (host < 0) throw new Error(`no instance logged tool call ${trip.toolCallId} of run ${runId}`);
      hosts.add(host);
      const resultCrosses = trip.postedTo !== host;
      const streamCrosses = host !== 0;
      byCrossing[
        resultCrosses ? (streamCrosses ? "both" : "result") : streamCrosses ? "stream" : "none"
      ].push(trip.ms);
    }
    if (hosts.has(0)) stepOnStreamInstance++;
  }
  const median = (trips: number[]) => (trips.length > 0 ? round(percentile(trips, 50)) : Number.NaN);
  return {
    runs,
    calls,
    /** Runs whose step ran on the stream's instance (the rest ran on the other). */
    stepOnStreamInstance,
    medianMs: {
      none: median(byCrossing.none),
      result: median(byCrossing.result),
      stream: median(byCrossing.stream),
      both: median(byCrossing.both),
    },
    trips: {
      none: byCrossing.none.length,
      result: byCrossing.result.length,
      stream: byCrossing.stream.length,
      both: byCrossing.both.length,
    },
  };
}
