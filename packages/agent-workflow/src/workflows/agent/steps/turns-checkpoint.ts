import type { ModelMessage } from "ai";
import { getStepMetadata } from "workflow";
import { agentStore } from "../../../agent-store.ts";
import type { RunWriter } from "../../../live/run-writer.ts";
import type { RunStart } from "../../../pipelines/open-run.ts";
import type { CallUsage, PlanState } from "../../../planning/index.ts";
import { type TokenUsage, zeroUsage } from "../../../usage.ts";
import type { AgentRunOutcome, RequestedToolCall, RunEventBody } from "../types.ts";

// What a turns step has done so far, saved after every model turn and tool result. A step re-run
// after a restart (the engine runs an interrupted step again from the top) carries on from here:
// answered tool calls never run twice, and the one still waiting is announced again under its id.

/** A tool call of the current turn, and its `tool-call` event once announced (re-sent after a restart). */
export interface PendingCall {
  call: RequestedToolCall;
  announced?: { id: number; event: Extract<RunEventBody, { type: "tool-call" }> };
}

/** What a turns step has added to the run so far. */
export interface TurnsProgress {
  nextId: number;
  /** The run's model turns so far (names each turn's message). */
  turnIndex: number;
  /** Messages this step added to the conversation (model turns and tool results). */
  messages: ModelMessage[];
  lastText: string;
  usage: TokenUsage;
  /** Tool calls this step announced. */
  toolCalls: number;
}

/**
 * What a planning agent's first step decided (planning-agent-start.ts), saved with its first
 * checkpoint: a resumed step does not plan again.
 */
export interface PlanningDecision {
  /** The run's opening: the one given, or the one this step did. */
  start: RunStart;
  plan: PlanState | null;
  usage: CallUsage;
  /** The id of the first frame this step writes after the opening (its leading events, the plan). */
  firstId: number;
  /** The id after the plan's frame (with a plan; without, the turns go on from `firstId`). */
  nextId: number;
}

export interface TurnsCheckpoint extends TurnsProgress {
  runId: string;
  segment: number;
  /** Model turns of this step (its limit is per step). */
  stepTurns: number;
  /** "model" while a model call is streaming: it cannot be resumed, only reported. */
  phase: "model" | "tools" | "done";
  pending: PendingCall[];
  /** Frames that may not have been durable when this was saved: sent again on resume (same ids). */
  unconfirmed: string;
  /** How the run ends, once this step decided it ends early (a limit, its time). */
  end?: AgentRunOutcome;
  /** A planning agent's plan decision (its first step only): a resumed step does not plan again. */
  planning?: PlanningDecision;
}

export function freshCheckpoint(
  runId: string,
  segment: number,
  firstId: number,
  turnIndex: number,
): TurnsCheckpoint {
  return {
    runId,
    segment,
    phase: "tools",
    nextId: firstId,
    turnIndex,
    stepTurns: 0,
    messages: [],
    lastText: "",
    usage: zeroUsage(),
    toolCalls: 0,
    pending: [],
    unconfirmed: "",
  };
}

/**
 * The checkpoint an earlier attempt of the same step saved, if any (step context). A step's first
 * attempt has none, and reads nothing: the engine counts an attempt before the step's code runs
 * (`step_started`), so a step run again after a restart is a later attempt. Unless the step's
 * work was `begunEarly` by the route that started the run (run-start-early.ts): its first attempt
 * may follow that work.
 */
export async function loadCheckpoint(
  runId: string,
  segment: number,
  begunEarly = false,
): Promise<TurnsCheckpoint | undefined> {
  if (getStepMetadata().attempt <= 1 && !begunEarly) return undefined;
  const saved = await agentStore().loadProgress(runId);
  if (saved?.segment !== segment) return undefined;
  return {
    ...(saved.state as Omit<TurnsCheckpoint, "messages" | "planning">),
    messages: saved.messages as ModelMessage[],
    ...(saved.planning === undefined ? {} : { planning: saved.planning as PlanningDecision }),
  };
}

/**
 * The saves of one step's progress, each a snapshot of `state` as it is when asked for (the step
 * goes on changing it while the store writes): the state, the messages added since the last save,
 * and the plan decision with the first save that has one (the store keeps it for the later ones).
 * `planningSaved`: the decision in `state` is in the store already (a resumed step).
 */
export function checkpointSaver(state: TurnsCheckpoint, writer: RunWriter, planningSaved: boolean) {
  let persisted = state.messages.length;
  let planningPending = !planningSaved && state.planning !== undefined;
  return (): Promise<void> => {
    const { messages, planning, ...rest } = state;
    const saved = agentStore().saveProgress(state.runId, state.segment, {
      state: JSON.stringify({ ...rest, unconfirmed: writer.unconfirmed() }),
      messages: { from: persisted, json: JSON.stringify(messages.slice(persisted)) },
      ...(planningPending ? { planning: JSON.stringify(planning) } : {}),
    });
    persisted = messages.length;
    planningPending = false;
    return saved;
  };
}
