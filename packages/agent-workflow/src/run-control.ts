// In-process cancellation of running steps: Stop (and the run time limit) abort
// the run's signal here, so a model call or a tool wait inside a step ends at
// once; a step on another instance sees the stored status instead (run-watch).
// Kept on globalThis because Next bundles route handlers and workflow steps
// separately. An entry lives from a run's first step to its end (`forgetRun`).

const KEY = Symbol.for("coauthor.run-control");

type Registry = Map<string, AbortController>;

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [KEY]?: Registry };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** The abort signal of a run's in-flight work in this process. */
export function runSignal(runId: string): AbortSignal {
  const controllers = registry();
  let controller = controllers.get(runId);
  if (!controller) {
    controller = new AbortController();
    controllers.set(runId, controller);
  }
  return controller.signal;
}

/** Aborts a run's in-flight work in this process (no-op when none). */
export function abortRun(runId: string, reason = "cancelled"): void {
  const controllers = registry();
  const controller = controllers.get(runId) ?? new AbortController();
  controllers.set(runId, controller);
  controller.abort(new Error(reason));
}

/** Drops an ended run's controller (its last step and the server that records its end call this). */
export function forgetRun(runId: string): void {
  registry().delete(runId);
}

/** How many runs this process keeps a controller for (tests: nothing outlives its run). */
export function trackedRuns(): number {
  return registry().size;
}
