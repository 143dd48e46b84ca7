import { EventEmitter } from "node:events";
import { z } from "zod";

// The Postgres world's job runner (graphile-worker) locks each job it takes with the id of the
// worker that took it, and only that worker unlocks it. A worker can die without unlocking: its
// process killed, or (graphile-worker 0.16) a worker that could not reach the database to release a
// job exits for good, its job still locked (our patch of the world replaces the worker, not the
// lock). Every instance therefore says which of its workers live (job-capacity.ts renews the list),
// and a job locked by a worker no instance names is unlocked (orphaned-steps.ts). The lists are
// rows of the app's database, which the instances of a deployment share (DATABASE_URL), as they
// share the runs' step leases.

const workerEvent = z.object({ worker: z.object({ workerId: z.string() }) });

/** This process's live job workers, followed on the job runner's events. */
export interface JobWorkers {
  /** Handed to the world as its job runner's event emitter (`queueEvents`). */
  readonly events: EventEmitter;
  /** The ids of the workers alive now. */
  live(): string[];
}

export function followJobWorkers(): JobWorkers {
  const events = new EventEmitter();
  const alive = new Set<string>();
  const idOf = (payload: unknown) => workerEvent.safeParse(payload).data?.worker.workerId;
  events.on("worker:create", (payload: unknown) => {
    const id = idOf(payload);
    if (id) alive.add(id);
  });
  // A worker that dies for good says so first (worker:fatalError), then stops like any other.
  for (const ended of ["worker:fatalError", "worker:stop"]) {
    events.on(ended, (payload: unknown) => {
      const id = idOf(payload);
      if (id) alive.delete(id);
    });
  }
  return { events, live: () => [...alive] };
}
