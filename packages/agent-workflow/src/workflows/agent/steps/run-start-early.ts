import { isDeepStrictEqual } from "node:util";
import { type DeferredDurable, deferredDurable } from "../../../live/deferred-durable.ts";
import type { DurableWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { abortRun } from "../../../run-control.ts";
import {
  opensRunBegunEarly,
  type PlanningStart,
  type PlanningStartArgs,
  planningAgentStart,
} from "./planning-agent-start.ts";

// A run's first step, begun by the route that starts the run. Between the route's `start` and that
// step the engine writes the run's first events, replays the workflow and queues the step (15–25 ms
// on the local world, more under load); a run that opens with a planning agent (every run without a
// recipe) need not wait for it. The route begins the step's work at once with the arguments the
// workflow will give the step (opening-step.ts): it opens the run, plans, asks the first turn and
// streams it live. Its frames become durable once the step exists: they wait for it in order
// (deferred-durable.ts), and the step, given the same arguments, takes the work over and returns
// its result. Everything else holds as in the step: the model-phase mark is saved before a turn's
// frames go out, so a process that stops before the step ran leaves progress the step's first
// attempt reads (`earlyStart` in the run's input). Only where the step surely runs in this process
// (the route decides: the local world).

/**
 * How long begun work waits for its step (15–25 ms as a rule, seconds under load) before it is
 * given up (`abandonRunStart`): a run whose first step has not come by then is stuck in the engine.
 */
const ADOPT_WITHIN_MS = 60_000;

interface EarlyStart {
  args: PlanningStartArgs;
  work: Promise<PlanningStart>;
  durable: DeferredDurable;
  expiry: ReturnType<typeof setTimeout>;
}

/** A run whose opening step came before the route began it: the route must not begin it any more. */
interface StepCameFirst {
  stepCameFirst: true;
  expiry: ReturnType<typeof setTimeout>;
}

// Kept on globalThis because Next bundles route handlers and workflow steps apart.
const KEY = Symbol.for("coauthor.run-start-early");

function begun(): Map<string, EarlyStart | StepCameFirst> {
  const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, EarlyStart | StepCameFirst> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** Forgets what `begun` holds for a run; the work begun for it, if any, is returned. */
function forget(runId: string): EarlyStart | undefined {
  const entry = begun().get(runId);
  if (!entry) return undefined;
  begun().delete(runId);
  clearTimeout(entry.expiry);
  return "work" in entry ? entry : undefined;
}

/**
 * Begins the first step of a run with the arguments the workflow will give it, when the run opens
 * with a planning agent (`openingArgs`: undefined when it does not). The pipeline's functions read
 * them off the run's input (opening-step.ts) and lead to this very step, so they are passed in
 * rather than imported here; read only when the step has not come first. Call once the run's live
 * frames have a listener: its first frames go out at once.
 */
export function beginEarlyStart(runId: string, openingArgs: () => PlanningStartArgs | undefined): void {
  // The step came first (the engine was quicker than this route): it does the work itself.
  if (begun().has(runId)) {
    forget(runId);
    return;
  }
  let args: PlanningStartArgs | undefined;
  try {
    args = openingArgs();
  } catch (error) {
    // The step will find no work begun and do its own (it fails there too if this was no fluke).
    log.error("could not read the run's first step off its input", { runId, error });
    return;
  }
  if (!args) return;
  const durable = deferredDurable();
  // Its own lease owner: a step of this run that does not take the work over waits until it ends.
  const work = planningAgentStart(args, {
    durable,
    resume: false,
    stopsReachSignal: true,
    leaseOwner: `route:${runId}`,
  });
  // The step that takes it awaits it too; this keeps a failure of one nobody took from going unhandled.
  work.catch((error: unknown) =>
    log.warn("the run's first step begun by its route failed", { runId, error }),
  );
  const expiry = setTimeout(() => abandonRunStart(runId, "its first step did not come"), ADOPT_WITHIN_MS);
  expiry.unref();
  begun().set(runId, { args, work, durable, expiry });
}

/**
 * Gives up the work begun for a run that no step took over (it ended, failed or was refused
 * first): the work is interrupted and its frames, which can no longer become durable, dropped.
 */
export function abandonRunStart(runId: string, reason: string): void {
  const early = forget(runId);
  if (!early) return;
  log.warn("the run's first step begun by its route is given up", { runId, reason });
  abortRun(runId, reason);
  early.durable.abandon(new Error(`the run's first step begun by its route is given up: ${reason}`));
}

/** Arguments as they arrive in the step (after the event log's serialization: no `undefined` keys). */
const asStored = (args: PlanningStartArgs): unknown => JSON.parse(JSON.stringify(args));

/** Whether the route's work was begun with the arguments the step got. */
function sameArgs(begunWith: PlanningStartArgs, given: PlanningStartArgs): boolean {
  try {
    return isDeepStrictEqual(asStored(begunWith), asStored(given));
  } catch (error) {
    log.error("could not compare the run's first step with the one its route began", {
      runId: given.runId,
      error,
    });
    return false;
  }
}

/** How long a step that came first is remembered: past any route still about to begin its run. */
const CAME_FIRST_KEPT_MS = 60_000;

/**
 * The work the route began for this step, now writing to `durable` (the step's stream), when its
 * arguments are the step's; otherwise undefined (no work begun here, or other arguments: a bug,
 * logged; the step then waits for that work's lease and resumes from what it saved). A run's
 * opening step that finds no work begun makes sure none will be.
 */
export function adoptEarlyStart(
  args: PlanningStartArgs,
  durable: DurableWriter,
): Promise<PlanningStart> | undefined {
  const early = forget(args.runId);
  if (!early) {
    if (opensRunBegunEarly(args)) {
      const expiry = setTimeout(() => forget(args.runId), CAME_FIRST_KEPT_MS);
      expiry.unref();
      begun().set(args.runId, { stepCameFirst: true, expiry });
    }
    return undefined;
  }
  if (!sameArgs(early.args, args)) {
    log.error("the run's first step is not the one its route began: it resumes after that work", {
      runId: args.runId,
    });
    early.durable.abandon(new Error("the run's first step differs from the one begun for it"));
    return undefined;
  }
  early.durable.attach(durable);
  return early.work;
}
