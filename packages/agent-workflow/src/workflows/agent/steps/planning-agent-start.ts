import type { PipelineDefinition } from "@coauthor/types";
import type { ModelMessage } from "ai";
import type { DurableWriter } from "../../../live/run-writer.ts";
import { type AgentPrompt, agentSystem } from "../../../pipelines/agent-system.ts";
import { openRun, type RunStart } from "../../../pipelines/open-run.ts";
import { runSignal } from "../../../run-control.ts";
import { acquireStepLease } from "../../../step-lease.ts";
import { SPAN } from "../../../telemetry/tracing.ts";
import type { AgentLimits, AgentWorkflowInput } from "../types.ts";
import { planAgent } from "./call-planner.ts";
import { askEarly, type EarlyTurn } from "./early-turn.ts";
import { planEvent } from "./plan-event.ts";
import type { ToolCallAudience } from "./tool-call-event.ts";
import {
  checkpointSaver,
  freshCheckpoint,
  loadCheckpoint,
  type PlanningDecision,
} from "./turns-checkpoint.ts";
import { continueTurns, type TurnsPlace, type TurnsResult, withWriter } from "./turns-loop.ts";
import { framesOf } from "./write-frames.ts";

/** What a planning agent's first step did: its plan decision, and its turns when it needed no plan. */
export interface PlanningStart extends PlanningDecision {
  turns?: TurnsResult;
}

/** What a planning agent's first step is given (by the workflow; run-start-early.ts reads the same). */
export interface PlanningStartArgs {
  runId: string;
  input: AgentWorkflowInput;
  definition: PipelineDefinition;
  agentId: string;
  modelId: string;
  prompt: AgentPrompt;
  messages: ModelMessage[];
  place: TurnsPlace;
  audience: ToolCallAudience;
  limits: AgentLimits;
  /** The run's opening, when an earlier step did it; absent: this step opens the run. */
  start?: RunStart;
}

/** Where a planning agent's first step's work runs: in its step, or begun early by the route. */
export interface PlanningStartPlace {
  /** Its frames' durable side: the step's stream, or one waiting for it (deferred-durable.ts). */
  durable: DurableWriter;
  /** Whether to look for progress an earlier attempt saved (step context: not in the route). */
  resume: boolean;
  /** Every Stop of the run reaches this process's signal (the route's run: the local world). */
  stopsReachSignal: boolean;
  /** Who holds the step's lease (default: this process). */
  leaseOwner?: string;
}

/** Whether this is the step that opens a run its route begins itself (run-start-early.ts). */
export function opensRunBegunEarly(args: PlanningStartArgs): boolean {
  return args.input.earlyStart === true && args.start === undefined;
}

/**
 * A planning agent's first step's work: opens the run when it is the run's first step, plans and,
 * when the task needs no plan (most requests), goes straight on with its turns, so the first words
 * of a run cost one step, not three. With a plan, the workflow runs its steps. The first turn is
 * asked for while the planner decides: the turn asked for first when no plan is needed.
 */
export async function planningAgentStart(
  args: PlanningStartArgs,
  where: PlanningStartPlace,
): Promise<PlanningStart> {
  const { runId, place } = args;
  // One executor at a time (a redelivered step waits), and the checkpoint read only once it holds.
  const lease = await acquireStepLease(runId, where.leaseOwner ? { owner: where.leaseOwner } : {});
  const resumed = where.resume
    ? await loadCheckpoint(runId, place.segment, opensRunBegunEarly(args))
    : undefined;
  let early: EarlyTurn | undefined;
  const started = withWriter(
    SPAN.runStart,
    runId,
    async (writer) => {
      let state = resumed;
      if (!state?.planning) {
        const start = args.start ?? (await openRun(runId, args.input, args.definition, writer));
        const firstTurn = {
          modelId: args.modelId,
          system: agentSystem(start.system, args.prompt),
          tools: start.tools[args.agentId] ?? [],
          messages: args.messages,
        };
        early = askEarly(runId, firstTurn, runSignal(runId));
        const proposal = await planAgent({ runId, ...firstTurn, limits: args.limits });
        if (proposal.plan) early.drop("the task has a plan");
        const firstId = args.start ? place.firstId : start.nextId;
        // With a plan, its leading events and the plan go out now; without, the turns write them.
        const nextId = proposal.plan ? firstId + place.leading.length + 1 : firstId;
        const planning: PlanningDecision = {
          start,
          plan: proposal.plan,
          usage: proposal.usage,
          firstId,
          nextId,
        };
        state = { ...freshCheckpoint(runId, place.segment, nextId, place.turnIndex), planning };
        // Saved before the plan goes out: a resumed step announces the same plan again. Without a
        // plan, the turns' first save carries the decision (before any model frame goes out: one
        // statement less before the first words); a restart before it plans again, having sent
        // only the run's opening and leading events, which go out the same again.
        if (proposal.plan) await checkpointSaver(state, writer, false)();
      }
      const { planning } = state;
      if (!planning) throw new Error("the agent's plan decision is missing");
      const { start, plan } = planning;
      if (plan) {
        if (resumed?.unconfirmed) writer.send(resumed.unconfirmed);
        writer.send(framesOf(runId, planning.firstId, [...place.leading, planEvent(plan)]));
        return planning;
      }
      const turns = await continueTurns(
        {
          ...place,
          firstId: planning.firstId,
          runId,
          modelId: args.modelId,
          system: agentSystem(start.system, args.prompt),
          messages: args.messages,
          tools: start.tools[args.agentId] ?? [],
          audience: args.audience,
          limits: args.limits,
          runDeadline: start.deadline,
          early,
          stopsReachSignal: where.stopsReachSignal,
        },
        state,
        resumed?.planning !== undefined,
        writer,
      );
      return { ...planning, turns };
    },
    where.durable,
  );
  // Not taken by a turn (the step ended first, or failed): dropped.
  return lease.during(started.finally(() => early?.drop("the step ended before its first turn")));
}
