import { isDeepStrictEqual } from "node:util";
import { log } from "../../../log.ts";
import { openingPlanningTurn, type PlanningTurn } from "../../../pipelines/opening-turn.ts";
import { runSignal } from "../../../run-control.ts";
import { inSpan, SPAN } from "../../../telemetry/tracing.ts";
import { pipelineArgsOf } from "../pipeline-args.ts";
import type { AgentWorkflowInput } from "../types.ts";
import { planAgent } from "./call-planner.ts";
import { askEarly, type EarlyTurn } from "./early-turn.ts";

// A run's first model calls, asked for by the route that starts the run. Between the route's
// `start` and the run's first step the engine writes the run's first events, replays the workflow
// and queues the step (15–25 ms on the local world, more on the Postgres world); a run that opens
// with a planning agent (every run without a recipe) asks the planner and its first turn as soon as
// it exists, and its first step takes both when they are what it would ask (start-planning-agent.ts).
// With a real model the writer's first words then wait for the model or the engine, whichever is
// slower, instead of one after the other. Only where the step surely runs in this process (the
// route decides: the local world); a prefetch nobody takes is dropped after a while.

/** How long a prefetch waits for its run's first step before it is dropped. */
const TAKE_WITHIN_MS = 10_000;

type PlanProposal = Awaited<ReturnType<typeof planAgent>>;

interface Prefetch {
  turn: PlanningTurn;
  early: EarlyTurn;
  proposal: Promise<PlanProposal>;
  expiry: ReturnType<typeof setTimeout>;
}

// Kept on globalThis because Next bundles route handlers and workflow steps apart.
const KEY = Symbol.for("coauthor.run-start-prefetch");

function prefetches(): Map<string, Prefetch> {
  const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, Prefetch> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** Asks for a starting run's planner and first turn now, when it opens with a planning agent. */
export function prefetchRunStart(runId: string, input: AgentWorkflowInput): void {
  const turn = openingPlanningTurn(pipelineArgsOf(runId, input));
  if (!turn) return;
  const { early, proposal } = inSpan(SPAN.runPrefetch, runId, () => ({
    early: askEarly(runId, turn, runSignal(runId)),
    proposal: planAgent({ runId, ...turn }),
  }));
  // Its taker awaits it too; this keeps a failure of one nobody takes from going unhandled.
  proposal.catch((error: unknown) =>
    log.warn("the planner asked at the run's start failed", { runId, error }),
  );
  const expiry = setTimeout(() => {
    if (prefetches().get(runId)?.early !== early) return;
    prefetches().delete(runId);
    early.drop("the run's first step did not take it");
  }, TAKE_WITHIN_MS);
  expiry.unref();
  prefetches().set(runId, { turn, early, proposal, expiry });
}

/**
 * The run's prefetched planner and first turn, when they are what `turn` asks; a prefetch that asked
 * for something else is dropped (the step asks for its own).
 */
export function takeRunStartPrefetch(
  runId: string,
  turn: PlanningTurn,
): { early: EarlyTurn; proposal: Promise<PlanProposal> } | undefined {
  const prefetch = prefetches().get(runId);
  if (!prefetch) return undefined;
  prefetches().delete(runId);
  clearTimeout(prefetch.expiry);
  if (!isDeepStrictEqual(prefetch.turn, turn)) {
    log.warn("the calls asked at the run's start differ from its first step's: asked again", { runId });
    prefetch.early.drop("the run's first step asks for something else");
    return undefined;
  }
  return { early: prefetch.early, proposal: prefetch.proposal };
}
