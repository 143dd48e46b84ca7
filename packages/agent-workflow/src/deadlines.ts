// The run time limit, kept by the server process rather than by `sleep()`
// inside the workflow: on the local world every pending sleep makes the queue
// re-deliver the workflow at its wake-up time, and each delivery replays the
// whole run. A timer interrupts the run's in-process work instead. Tool
// deadlines are kept by the turns step itself.
// Timers live in this process: after a restart, recovery re-arms the limit.

import { log } from "./log.ts";
import { abortRun } from "./run-control.ts";
import { RUN_TIMEOUT_REASON } from "./run-outcomes.ts";

const KEY = Symbol.for("coauthor.deadlines");

function timers(): Map<string, ReturnType<typeof setTimeout>> {
  const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, ReturnType<typeof setTimeout>> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

function clear(key: string): void {
  const timer = timers().get(key);
  if (timer) clearTimeout(timer);
  timers().delete(key);
}

/**
 * At `at` (epoch ms), ends the run with `finish: timeout`: interrupts its work
 * in this process (the turns step also keeps its own copy of the deadline, so
 * a step on another instance ends too).
 */
export function armRunTimeout(runId: string, at: number): void {
  const key = `${runId}\u0000run`;
  clear(key);
  const timer = setTimeout(
    () => {
      timers().delete(key);
      log.warn("run time limit passed", { runId });
      abortRun(runId, RUN_TIMEOUT_REASON);
    },
    Math.max(0, at - Date.now()),
  );
  timer.unref?.();
  timers().set(key, timer);
}

/** Drops every deadline of an ended run. */
export function disarmRun(runId: string): void {
  for (const key of [...timers().keys()]) if (key.startsWith(`${runId}\u0000`)) clear(key);
}

/** How many deadlines this process is keeping (tests, benchmarks). */
export function armedDeadlines(): number {
  return timers().size;
}
