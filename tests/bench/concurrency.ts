// Many simultaneous runs by several users: completion, tail round trip, and
// the server's memory per run that is waiting on a tool call.
import { readFileSync } from "node:fs";
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { percentile, round } from "./stats.ts";

function rssBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    total += Number(match?.[1] ?? 0) * 1024;
  }
  return total;
}

/** `runs` simultaneous runs of `calls` tool calls each, spread over `users` users. */
export async function concurrentRuns(
  baseURL: string,
  serverPids: () => number[],
  runs: number,
  users: number,
  calls: number,
) {
  const clients = await Promise.all(
    Array.from({ length: users }, () => new CoauthorClient(baseURL).signIn()),
  );
  const documents = await Promise.all(
    Array.from({ length: runs }, (_, i) => clients[i % users]?.createDocument() ?? ""),
  );
  const baseline = rssBytes(serverPids());
  let waiting = 0;
  let release: () => void = () => undefined;
  const allWaiting = new Promise<void>((resolve) => {
    release = resolve;
  });
  let peakWaiting = baseline;
  const trips: number[] = [];
  const wrongStream: string[] = [];
  const results = await Promise.all(
    documents.map(async (documentId, i) => {
      const client = clients[i % users] as CoauthorClient;
      let postedAt = 0;
      let first = true;
      const run = await client.runAgent(documentId, `count to ${calls}`, {
        editor: createDocumentEditor(),
        onEvent: (event: RunEvent, current) => {
          if (event.runId !== current.runId) wrongStream.push(current.runId);
          if (event.type === "tool-call" && postedAt) trips.push(performance.now() - postedAt);
          return undefined;
        },
        answer: async (event, editor) => {
          if (first) {
            // Hold every run at its first tool call until all are waiting, then measure memory.
            first = false;
            waiting++;
            if (waiting === runs) {
              peakWaiting = rssBytes(serverPids());
              release();
            }
            await allWaiting;
          }
          const result = await runEditorTool(editor, event.toolName, event.input);
          postedAt = performance.now();
          return result;
        },
      });
      const last = run.events.at(-1);
      return last?.type === "finish" && last.status === "done";
    }),
  );
  return {
    runs,
    users,
    completed: results.filter(Boolean).length,
    roundTripP50Ms: round(percentile(trips, 50)),
    roundTripP99Ms: round(percentile(trips, 99)),
    rssPerWaitingRunMB: round((peakWaiting - baseline) / runs / 1024 / 1024),
    eventsOnWrongStream: wrongStream.length,
  };
}
