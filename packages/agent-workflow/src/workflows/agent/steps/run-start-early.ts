import { isDeepStrictEqual } from "node:util";
import { type DeferredDurable, deferredDurable } from "../../../live/deferred-durable.ts";
import type { DurableWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { openingStepArgs } from "../../../pipelines/opening-step.ts";
import { pipelineArgsOf } from "../pipeline-args.ts";
import type { AgentWorkflowInput } from "../types.ts";
import { type PlanningStart, type PlanningStartArgs, planningAgentStart } from "./planning-agent-start.ts";

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

/** How long begun work waits for its step before its frames are given up (a run far past its time). */
const ADOPT_WITHIN_MS = 60 * 60_000;

interface EarlyStart {
  args: PlanningStartArgs;
  work: Promise<PlanningStart>;
  durable: DeferredDurable;
  expiry: ReturnType<typeof setTimeout>;
}

// Kept on globalThis because Next bundles route handlers and workflow steps apart.
const KEY = Symbol.for("coauthor.run-start-early");

function begun(): Map<string, EarlyStart> {
  const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, EarlyStart> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Begins the first step of a run started with `earlyStart` in its input, when it opens with a
 * planning agent. Call once the run's live frames have a listener: its first frames go out at once.
 */
export function beginRunStart(runId: string, input: AgentWorkflowInput): void {
  const args = openingStepArgs(pipelineArgsOf(runId, input));
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
  const expiry = setTimeout(() => {
    if (begun().get(runId)?.work !== work) return;
    begun().delete(runId);
    durable.abandon(new Error("the run's first step never came"));
  }, ADOPT_WITHIN_MS);
  expiry.unref();
  begun().set(runId, { args, work, durable, expiry });
}

/** Arguments as they arrive in the step (after the event log's serialization: no `undefined` keys). */
const asStored = (args: PlanningStartArgs): unknown => JSON.parse(JSON.stringify(args));

/**
 * The work the route began for this step, now writing to `durable` (the step's stream), when its
 * arguments are the step's; otherwise undefined (no work begun here, or other arguments: a bug,
 * logged; the step then waits for that work's lease and resumes from what it saved).
 */
export function adoptEarlyStart(
  args: PlanningStartArgs,
  durable: DurableWriter,
): Promise<PlanningStart> | undefined {
  const early = begun().get(args.runId);
  if (!early) return undefined;
  begun().delete(args.runId);
  clearTimeout(early.expiry);
  if (!isDeepStrictEqual(asStored(early.args), asStored(args))) {
    log.error("the run's first step is not the one its route began: it resumes after that work", {
      runId: args.runId,
    });
    early.durable.abandon(new Error("the run's first step differs from the one begun for it"));
    return undefined;
  }
  early.durable.attach(durable);
  return early.work;
}
