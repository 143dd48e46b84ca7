// In-process cancellation of running steps. A cancelled run's hook stops the
// workflow at its next await; a model call already streaming inside a step is
// interrupted here, so Stop takes effect within a second. Kept on globalThis
// because Next bundles route handlers and workflow steps separately.

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

/** Drops a finished run's controller. */
export function forgetRun(runId: string): void {
  registry().delete(runId);
}
