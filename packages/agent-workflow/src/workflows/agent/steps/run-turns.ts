import type { ModelMessage } from "ai";
import { agentStore } from "../../../agent-store.ts";
import { openRunWriter, type RunWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { interruptedOutcome, limitOutcome, RUN_TIMEOUT_REASON } from "../../../run-outcomes.ts";
import { acquireStepLease } from "../../../step-lease.ts";
import { listenForToolResult } from "../../../tool-results.ts";
import { addUsage, type TokenUsage } from "../../../usage.ts";
import type { AgentLimits, AgentRunOutcome, AgentWorkflowInput, RunEventBody } from "../types.ts";
import { callLlm, reasonOf } from "./call-llm.ts";
import { type PlannerResult, planFrame, planRun } from "./call-planner.ts";
import { watchRun } from "./run-watch.ts";
import { type ToolCallAudience, toolCallEvent } from "./tool-call-event.ts";
import { notRunMessage, summarizeResult, toolMessage } from "./tool-messages.ts";
import {
  freshCheckpoint,
  loadCheckpoint,
  saveCheckpoint,
  type TurnsCheckpoint,
  type TurnsProgress,
} from "./turns-checkpoint.ts";
import { wrapUp } from "./wrap-up.ts";
import { framesOf } from "./write-frames.ts";

/** Error code of a run whose model call was cut off (the server died mid-answer). */
export const SERVER_RESTARTED = "server-restarted";
// A model call cut off by a restart had streamed frames live that never became durable, under ids
// nobody can know now: the run's last frame jumps this far ahead, past anything a client saw.
const RESTART_ID_GAP = 100_000;
const STEP_RETRIES = 8;

/** What one turns step did: the workflow adds it to the run. */
export interface TurnsResult extends TurnsProgress {
  /** Set when the run must end (Stop, a limit, a failure). */
  end?: AgentRunOutcome;
}

interface TurnsArgs {
  runId: string;
  /** Which turns step of the run this is (checkpoints of an earlier one are ignored). */
  segment: number;
  firstId: number;
  turnIndex: number;
  /** Tool calls the run made before this step (the run's tool-call limit counts them). */
  toolCallsBefore: number;
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  /** Events to write before anything else (the plan step starting). */
  leading: RunEventBody[];
  audience: ToolCallAudience;
  limits: AgentLimits;
  /** When the run's time limit passes (epoch ms). */
  runDeadline: number;
  /**
   * Makes the model's tool call ids unique in the run (a pipeline's agents each have their own
   * conversation, whose ids may repeat): the browser and the store see `prefix + id`.
   */
  callIdPrefix?: string;
}

/** Runs `work` with the run's writer, then waits until everything it sent is durable. */
async function withWriter<T>(runId: string, work: (writer: RunWriter) => Promise<T>): Promise<T> {
  const writer = openRunWriter(runId);
  try {
    return await work(writer);
  } finally {
    try {
      await writer.flush();
    } finally {
      writer.release();
    }
  }
}

/**
 * Turns step: model turns until the model answers without tool calls (one
 * plan step, or a whole run without a plan). Each tool call is announced with
 * a signed single-use token and its result awaited right here, in this step:
 * a tool round trip costs no workflow replay, whatever the run's length. Its
 * progress is saved as it goes (see TurnsCheckpoint).
 */
export async function runTurns(args: TurnsArgs): Promise<TurnsResult> {
  "use step";
  // One executor at a time (a redelivered step waits), and the checkpoint read only once it holds.
  const lease = await acquireStepLease(args.runId);
  const resumed = await loadCheckpoint(args.runId, args.segment);
  const turns = withWriter(args.runId, (writer) =>
    continueTurns(
      args,
      resumed ?? freshCheckpoint(args.runId, args.segment, args.firstId, args.turnIndex),
      !!resumed,
      writer,
    ),
  );
  return lease.during(turns);
}

/** What the run's first step did: its plan decision, and its turns when it needed no plan. */
export interface StartResult {
  planner: PlannerResult;
  turns?: TurnsResult;
}

/**
 * The run's first step: plans the run and, when it needs no plan (most
 * requests), goes straight on with its turns in the same step, so the first
 * words cost one step, not two. With a plan, the workflow runs its steps.
 */
export async function startRun(args: {
  runId: string;
  input: AgentWorkflowInput;
  messages: ModelMessage[];
  audience: ToolCallAudience;
}): Promise<StartResult> {
  "use step";
  const { runId, input } = args;
  const lease = await acquireStepLease(runId);
  const resumed = await loadCheckpoint(runId, 0);
  const started = withWriter(runId, async (writer) => {
    let state = resumed;
    if (!state?.planner) {
      const planner = await planRun(runId, input, args.messages, writer);
      state = { ...freshCheckpoint(runId, 0, planner.nextId, 0), planner };
      // Saved before the plan goes out: a resumed step announces the same plan again.
      await saveCheckpoint(state, 0, writer);
    }
    const planner = state.planner;
    if (!planner) throw new Error("the run's plan decision is missing");
    if (planner.plan) {
      if (resumed?.unconfirmed) writer.send(resumed.unconfirmed);
      writer.send(planFrame(runId, planner.plan));
      return { planner };
    }
    const turns = await continueTurns(
      {
        runId,
        segment: 0,
        firstId: planner.nextId,
        turnIndex: 0,
        toolCallsBefore: 0,
        modelId: input.modelId,
        system: planner.system,
        messages: args.messages,
        tools: planner.tools,
        leading: [],
        audience: args.audience,
        limits: input.limits,
        runDeadline: planner.runDeadline,
      },
      state,
      resumed?.planner !== undefined,
      writer,
    );
    return { planner, turns };
  });
  return lease.during(started);
}

/** The turns loop from `state` (fresh, or saved by an earlier attempt of the same step). */
async function continueTurns(
  args: TurnsArgs,
  state: TurnsCheckpoint,
  resumed: boolean,
  writer: RunWriter,
): Promise<TurnsResult> {
  const { runId, limits } = args;
  const result = (end?: AgentRunOutcome): TurnsResult => ({
    nextId: state.nextId,
    turnIndex: state.turnIndex,
    messages: state.messages,
    replies: state.replies,
    lastText: state.lastText,
    usage: state.usage,
    toolCalls: state.toolCalls,
    ...(end ? { end } : {}),
  });
  if (resumed && state.unconfirmed) writer.send(state.unconfirmed);
  if (resumed && state.phase === "model") {
    log.warn("model call cut off by a restart: ending the run", { runId });
    state.nextId += RESTART_ID_GAP;
    return result({
      status: "error",
      code: SERVER_RESTARTED,
      summary:
        "The run was interrupted while the model was answering (a server restart or a failure), so it was stopped. Send the prompt again.",
    });
  }
  if (resumed && state.phase === "done") return result(state.end);
  if (resumed) log.info("turns resumed", { runId, turn: state.turnIndex, pending: state.pending.length });
  // A Stop recorded by another instance before this step began (this process's signal is checked
  // throughout, the store again every second).
  if (await agentStore().isStopped(runId)) return result(interruptedOutcome(undefined, limits.runTimeoutMs));
  return turns(resumed);

  async function turns(wasResumed: boolean): Promise<TurnsResult> {
    const watch = watchRun(runId, args.runDeadline);
    const send = (bodies: RunEventBody[]) => {
      writer.send(framesOf(runId, state.nextId, bodies));
      state.nextId += bodies.length;
    };
    let persisted = state.messages.length;
    const checkpoint = () => {
      const saved = saveCheckpoint(state, persisted, writer);
      persisted = state.messages.length;
      return saved;
    };
    /** What the next model call is: its place in the run and the conversation so far. */
    const nextTurn = () => ({
      runId,
      firstId: state.nextId,
      turn: state.turnIndex,
      modelId: args.modelId,
      system: args.system,
      messages: [...args.messages, ...state.messages],
      tools: args.tools,
    });
    /** Counts a model turn's usage and frames into the step. */
    const countTurn = (turn: { nextId: number; usage: TokenUsage }) => {
      state.nextId = turn.nextId;
      state.turnIndex++;
      addUsage(state.usage, turn.usage);
    };
    /**
     * Ends the run before its work is done: calls still waiting get a "not run" answer (the
     * conversation stays one a model can continue), then the model says what it did and what is
     * left — unless the writer stopped the run.
     */
    const endEarly = async (end: AgentRunOutcome, situation: string): Promise<TurnsResult> => {
      for (const { call } of state.pending) state.messages.push(notRunMessage(call, "not-run", situation));
      state.pending = [];
      // Saved as ended first: a restart during the last words ends the run the same way, without them.
      state.phase = "done";
      state.end = end;
      await checkpoint();
      const signal = end.status === "timeout" ? watch.stopped : watch.signal;
      if (!signal.aborted) {
        const said = await wrapUp({
          ...nextTurn(),
          situation,
          signal,
          writer,
        });
        countTurn(said);
        if (said.status === "ok" && said.text.trim()) {
          // Its text only: a tool call it asked for anyway would stand unanswered in the conversation.
          state.lastText = said.text.trim();
          state.messages.push({ role: "assistant", content: state.lastText });
          state.replies.push(state.lastText);
        }
      }
      await checkpoint();
      return result(end);
    };
    const interrupted = (): Promise<TurnsResult> | TurnsResult => {
      const reason = reasonOf(watch.signal);
      const end = interruptedOutcome(reason, limits.runTimeoutMs);
      if (reason !== RUN_TIMEOUT_REASON) return result(end);
      return endEarly(end, `Its time limit of ${limits.runTimeoutMs / 1000} s has passed.`);
    };
    const atLimit = (limit: string) => endEarly(limitOutcome(limit), `It has reached its limit of ${limit}.`);

    try {
      if (!wasResumed && args.leading.length > 0) send(args.leading);
      for (;;) {
        // The current turn's tool calls, one at a time, in order.
        while (state.pending[0]) {
          const pending = state.pending[0];
          const callId = `${args.callIdPrefix ?? ""}${pending.call.toolCallId}`;
          const listener = listenForToolResult(runId, callId);
          const fresh = !pending.announced;
          let answer: Awaited<ReturnType<typeof listener.wait>>;
          try {
            if (pending.announced) {
              // Resumed after a restart: announced again under its own id and token (clients dedupe).
              writer.send(framesOf(runId, pending.announced.id, [pending.announced.event]));
            } else {
              const event = await toolCallEvent({ ...pending.call, toolCallId: callId }, args.audience);
              pending.announced = { id: state.nextId, event };
              state.nextId++;
              state.toolCalls++;
              // Saved before anyone sees it: a step run again from here announces the same call
              // (same id, same token) and takes its result, so a tool the browser ran is never lost.
              await checkpoint();
              writer.send(framesOf(runId, pending.announced.id, [event]));
            }
            answer = await listener.wait({
              deadline: pending.announced.event.deadline,
              signal: watch.signal,
              fresh,
            });
          } finally {
            listener.close();
          }
          if (answer.kind === "aborted") return await interrupted();
          if (answer.kind === "timeout") {
            log.warn("tool deadline passed", { runId, toolCallId: callId });
            return result({
              status: "error",
              code: "tool-timeout",
              summary: `The browser did not answer ${pending.call.toolName} within ${limits.toolDeadlineMs / 1000} s.`,
            });
          }
          // The callback route validated the result with the tool's zod schema before recording it.
          // Not saved here: the result is in the store, so a resumed step takes it from there again.
          const { ok, summary } = summarizeResult(answer.result);
          send([{ type: "tool-result", toolCallId: callId, ok, summary }]);
          state.messages.push(toolMessage(pending.call, answer.result));
          state.pending.shift();
        }
        if (watch.signal.aborted) return await interrupted();
        if (state.stepTurns >= limits.maxTurnsPerStep)
          return await atLimit(`${limits.maxTurnsPerStep} model turns`);

        // Marked before the model's first frame goes out: a restart from here ends the run. The mark
        // is written while the model starts (its frames wait for it).
        state.phase = "model";
        const marked = checkpoint();
        marked.catch(() => undefined); // Awaited below; this only keeps an early failure from going unhandled.
        const turn = await callLlm({
          ...nextTurn(),
          runAbort: watch.signal,
          timeoutMs: limits.modelStepTimeoutMs,
          writer,
          ready: marked,
        });
        await marked;
        countTurn(turn);
        state.stepTurns++;
        state.phase = "tools";
        if (turn.status === "aborted") return await interrupted();
        if (turn.status === "error") {
          return result({
            status: "error",
            code: turn.errorCode ?? "model-error",
            summary: turn.errorMessage,
          });
        }
        state.messages.push(...turn.responseMessages);
        state.lastText = turn.text.trim();
        if (state.lastText) state.replies.push(state.lastText);
        const left = limits.maxToolCallsPerRun - args.toolCallsBefore - state.toolCalls;
        const calls = turn.toolCalls.slice(0, Math.min(limits.maxToolCallsPerTurn, left));
        for (const skipped of turn.toolCalls.slice(calls.length)) {
          state.messages.push(
            calls.length < limits.maxToolCallsPerTurn
              ? notRunMessage(
                  skipped,
                  "run-limit",
                  `not run: the run's limit of ${limits.maxToolCallsPerRun} tool calls is reached`,
                )
              : notRunMessage(
                  skipped,
                  "too-many-tool-calls",
                  `not run: at most ${calls.length} tool calls per turn`,
                ),
          );
        }
        if (turn.toolCalls.length > 0 && calls.length === 0) {
          return await atLimit(`${limits.maxToolCallsPerRun} tool calls`);
        }
        state.pending = calls.map((call) => ({ call }));
        if (calls.length === 0) {
          state.phase = "done";
          await checkpoint();
          return result();
        }
      }
    } finally {
      watch.close();
    }
  }
}

// A restart runs a step again and counts as one of its attempts: these steps resume from their
// checkpoint, so they may take a few more than the default three retries.
startRun.maxRetries = STEP_RETRIES;
runTurns.maxRetries = STEP_RETRIES;
