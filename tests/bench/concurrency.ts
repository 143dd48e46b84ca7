// Many simultaneous runs by several users: completion, tail round trip, and
// the server's memory per run that is waiting on a tool call.
import { readFileSync } from "node:fs";
import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { percentile, round } from "./stats.ts";

/** Resident memory of the given processes together (Linux /proc). */
export function rssBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    total += Number(match?.[1] ?? 0) * 1024;
  }
  return total;
}

/** Where the runs go and how to read the servers' memory. */
export interface RunTarget {
  /** One URL per instance: user `i` works on instance `i % urls.length` (two instances side by side). */
  urls: string[];
  /** The processes of every instance. */
  pids: () => number[];
  /**
   * Collects garbage on every instance before memory is read (the bench route), if given; returns
   * the JavaScript heap the instances' live objects hold together (bytes).
   */
  gc?: () => Promise<number>;
}

/** `runs` simultaneous runs of `calls` tool calls each, spread over `users` users. */
export async function concurrentRuns(
  target: RunTarget,
  runs: number,
  users: number,
  calls: number,
  budgetMs = 180_000,
) {
  const serverPids = target.pids;
  const clients = await Promise.all(
    Array.from({ length: users }, (_, i) =>
      new CoauthorClient(target.urls[i % target.urls.length] ?? "").signIn(),
    ),
  );
  const documents = await Promise.all(
    Array.from({ length: runs }, (_, i) => clients[i % users]?.createDocument() ?? ""),
  );
  const heapBaseline = (await target.gc?.()) ?? Number.NaN;
  const baseline = rssBytes(serverPids());
  let waiting = 0;
  // Runs that ended (or never started) before their first tool call: the gate must not wait for them.
  let gone = 0;
  let release: () => void = () => undefined;
  const allWaiting = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrive = (kind: "waiting" | "gone") => {
    if (kind === "waiting") waiting++;
    else gone++;
    if (waiting + gone !== runs) return;
    if (waiting !== runs) return release();
    // Every run holds at its first tool call: what the servers hold now is what waiting costs.
    void (target.gc?.() ?? Promise.resolve(Number.NaN)).then(
      (heap) => {
        heapWaiting = heap;
        peakWaiting = rssBytes(serverPids());
        release();
      },
      (error: Error) => {
        gcError = error;
        release();
      },
    );
  };
  const started = performance.now();
  const outcomes = new Map<string, number>();
  const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  let peakWaiting = baseline;
  let heapWaiting = Number.NaN;
  let gcError: Error | undefined;
  const trips: number[] = [];
  const wrongStream: string[] = [];
  const results = await Promise.all(
    documents.map(async (documentId, i) => {
      const client = clients[i % users] as CoauthorClient;
      let postedAt = 0;
      let first = true;
      let overBudget = false;
      const driven = client.runAgent(documentId, `count to ${calls}`, {
        editor: createDocumentEditor(),
        onEvent: (event: RunEvent, current) => {
          if (event.runId !== current.runId) wrongStream.push(current.runId);
          if (event.type === "tool-call" && postedAt) trips.push(performance.now() - postedAt);
          if (!overBudget && performance.now() - started > budgetMs) {
            overBudget = true;
            return "stop";
          }
          return undefined;
        },
        answer: async (event, editor) => {
          if (first) {
            // Hold every run at its first tool call until all are waiting, then measure memory.
            first = false;
            arrive("waiting");
            await allWaiting;
          }
          const result = await runEditorTool(editor, event.toolName, event.input);
          postedAt = performance.now();
          return result;
        },
      });
      // A stalled server sends no frame on which to stop: give up on the stream then.
      const silent = new Promise<Error>((resolve) =>
        setTimeout(
          () => resolve(new Error(`no end ${budgetMs / 1000 + 30} s after the start (stalled)`)),
          budgetMs + 30_000,
        ).unref(),
      );
      const run = await Promise.race([driven.catch((error: Error) => error), silent]);
      if (first) arrive("gone");
      if (run instanceof Error) {
        count(run.message.startsWith("no end") ? run.message : `request failed: ${run.message}`);
        return false;
      }
      const last = run.events.at(-1);
      const done = last?.type === "finish" && last.status === "done";
      count(
        done
          ? "done"
          : overBudget
            ? "stopped at budget"
            : run.status !== 200
              ? `HTTP ${run.status}`
              : last?.type === "error"
                ? last.code
                : last?.type === "finish"
                  ? `finish ${last.status}`
                  : "stream ended early",
      );
      return done;
    }),
  );
  const perRunKB = (bytes: number) => (waiting === runs && !gcError ? bytes / runs / 1024 : Number.NaN);
  return {
    runs,
    users,
    completed: results.filter(Boolean).length,
    outcomes: [...outcomes].map(([outcome, n]) => `${n}× ${outcome}`).join(", "),
    seconds: round((performance.now() - started) / 1000),
    roundTripP50Ms: round(percentile(trips, 50)),
    roundTripP99Ms: round(percentile(trips, 99)),
    // Taken only when every run reached its first tool call at the same time.
    rssPerWaitingRunMB: round(perRunKB(peakWaiting - baseline) / 1024),
    // The heap of live objects after a full collection: what the runs hold, without the allocator's
    // slack that RSS keeps (a server's RSS rarely shrinks, so it drifts more than small runs add).
    heapPerWaitingRunKB: round(perRunKB(heapWaiting - heapBaseline)),
    ...(gcError ? { note: `memory not read: ${gcError.message}` } : {}),
    eventsOnWrongStream: wrongStream.length,
  };
}

/**
 * `concurrentRuns` `load.passes` times on the same target: the pass with the median p99, with
 * every pass's p99 beside it — or the first pass in which a run did not finish, since "all done"
 * holds only if it held every time. (The p99 of one pass of 200 round trips is its second-slowest
 * trip, and moves by hundreds of ms with one pause of the machine or the server.)
 */
export async function loadPasses(
  target: RunTarget,
  load: { runs: number; users: number; calls: number; passes: number },
  budgetMs: number,
) {
  const passes: Awaited<ReturnType<typeof concurrentRuns>>[] = [];
  for (let i = 0; i < load.passes; i++)
    passes.push(await concurrentRuns(target, load.runs, load.users, load.calls, budgetMs));
  const byP99 = [...passes].sort((a, b) => a.roundTripP99Ms - b.roundTripP99Ms);
  const shown = passes.find((pass) => pass.completed < pass.runs) ?? byP99[Math.floor(byP99.length / 2)];
  if (!shown) throw new Error("no load pass was taken");
  return { ...shown, p99PassesMs: passes.map((pass) => pass.roundTripP99Ms) };
}
