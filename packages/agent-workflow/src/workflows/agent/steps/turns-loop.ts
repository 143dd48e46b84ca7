import type { ModelMessage } from "ai";
import { agentStore } from "../../../agent-store.ts";
import { type DurableWriter, openRunWriter, type RunWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { interruptedOutcome, limitOutcome, RUN_TIMEOUT_REASON } from "../../../run-outcomes.ts";
import { type SpanName, withSpan } from "../../../telemetry/tracing.ts";
import { addUsage, type TokenUsage } from "../../../usage.ts";
import type { AgentLimits, AgentRunOutcome, RunEventBody } from "../types.ts";
import { callLlm, reasonOf } from "./call-llm.ts";
import type { EarlyTurn } from "./early-turn.ts";
import { watchRun } from "./run-watch.ts";
import type { ToolCallAudience } from "./tool-call-event.ts";
import { notRunMessage, toolMessage } from "./tool-messages.ts";
import { answerToolCall, awaitToolCall, runCallId } from "./tool-round-trip.ts";
import { checkpointSaver, type TurnsCheckpoint, type TurnsProgress } from "./turns-checkpoint.ts";
import { wrapUp } from "./wrap-up.ts";
import { framesOf } from "./write-frames.ts";

// The turns loop: model turns until the model answers without tool calls, each tool call run in
// the browser (tool-round-trip.ts). Plain code run inside the turns steps (run-turns.ts, and a
// planning agent's first step); kept out of the step files so the workflow bundle never loads it.

/** Error code of a run whose model call was cut off (the server died mid-answer). */
export const SERVER_RESTARTED = "server-restarted";
// A model call cut off by a restart had streamed frames live that never became durable, under ids
// nobody can know now: the run's last frame jumps this far ahead, past anything a client saw.
const RESTART_ID_GAP = 100_000;

/** What one turns step did: the workflow adds it to the run. */
export interface TurnsResult extends TurnsProgress {
  /** What the model said this step, a text per turn that said anything (see `repliesIn`). */
  replies: string[];
  /** Set when the run must end (Stop, a limit, a failure). */
  end?: AgentRunOutcome;
}

/**
 * The text of each assistant message that says something: what the model said, turn by turn. Taken from
 * the conversation when the step ends rather than kept beside it, so a checkpoint, saved twice per
 * tool call, does not grow with everything said so far.
 */
export function repliesIn(messages: ModelMessage[]): string[] {
  return messages.flatMap((message) => {
    if (message.role !== "assistant") return [];
    const text =
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    return text.trim() ? [text.trim()] : [];
  });
}

/**
 * Where a turns step takes the run up: what it numbers its frames, turns and checkpoints from. The
 * run's ledger hands out each one (pipelines/run-ledger.ts).
 */
export interface TurnsPlace {
  /** Which turns step of the run this is (its checkpoints; its tool call ids are made unique by it). */
  segment: number;
  firstId: number;
  turnIndex: number;
  /** Tool calls the run made before this step (the run's tool-call limit counts them). */
  toolCallsBefore: number;
  /** Events to write before anything else (a step starting). */
  leading: RunEventBody[];
}

export interface TurnsArgs extends TurnsPlace {
  runId: string;
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  audience: ToolCallAudience;
  limits: AgentLimits;
  /** When the run's time limit passes (epoch ms). */
  runDeadline: number;
  /** The step's first model turn, asked for already (early-turn.ts). */
  early?: EarlyTurn;
  /** Every Stop of the run reaches this process's signal (no other instance can record one). */
  stopsReachSignal?: boolean;
}

/**
 * Runs `work` with the run's writer (on `durable`, else the step's stream), then waits until
 * everything it sent is durable.
 */
export async function withWriter<T>(
  span: SpanName,
  runId: string,
  work: (writer: RunWriter) => Promise<T>,
  durable?: DurableWriter,
): Promise<T> {
  return withSpan(span, runId, async () => {
    const writer = openRunWriter(runId, durable);
    try {
      return await work(writer);
    } finally {
      try {
        await writer.flush();
      } finally {
        writer.release();
      }
    }
  });
}

/** The turns loop from `state` (fresh, or saved by an earlier attempt of the same step). */
export async function continueTurns(
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
    replies: repliesIn(state.messages),
    lastText: state.lastText,
    usage: state.usage,
    toolCalls: state.toolCalls,
    ...(end ? { end } : {}),
  });
  if (resumed && state.unconfirmed) writer.send(state.unconfirmed);
  if (resumed && state.phase === "model") {
    log.warn("model call cut off by a restart: ending the run", { runId });
    // Marked by the claim of the turn's last result: the results are in the store, not yet in the
    // conversation (which stays one a model can continue).
    for (const { call } of state.pending) {
      const stored = await agentStore().getToolResult(runId, runCallId(args.segment, call.toolCallId));
      state.messages.push(
        stored ? toolMessage(call, stored.result) : notRunMessage(call, "not-run", "the server restarted"),
      );
    }
    state.pending = [];
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
  if (!args.stopsReachSignal && (await agentStore().isStopped(runId)))
    return result(interruptedOutcome(undefined, limits.runTimeoutMs));
  return turns(resumed);

  async function turns(wasResumed: boolean): Promise<TurnsResult> {
    const watch = watchRun(runId, args.runDeadline);
    const send = (bodies: RunEventBody[], options?: { linger: boolean }) => {
      writer.send(framesOf(runId, state.nextId, bodies), options);
      state.nextId += bodies.length;
    };
    // A fresh planning agent's decision goes with the first save (a resumed step's is saved).
    const checkpoint = checkpointSaver(state, writer, resumed);
    /** What the next model call is: its place in the run and the conversation so far. */
    const nextTurn = () => ({
      runId,
      firstId: state.nextId,
      turn: state.turnIndex,
      modelId: args.modelId,
      system: args.system,
      messages: [...args.messages, ...state.messages],
      tools: args.tools,
      callIdOf: (modelCallId: string) => runCallId(args.segment, modelCallId),
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
        // Whether the claim of the turn's last result marked the model phase (tool-results.ts).
        let modelPhaseMarked = false;
        // The current turn's tool calls, one at a time, in order.
        while (state.pending[0]) {
          const pending = state.pending[0];
          const callId = runCallId(args.segment, pending.call.toolCallId);
          const answer = await awaitToolCall({
            state,
            pending,
            callId,
            audience: args.audience,
            writer,
            watch,
            checkpoint,
          });
          if (answer.kind === "aborted") return await interrupted();
          if (answer.kind === "timeout") {
            log.warn("tool deadline passed", { runId, toolCallId: callId });
            return result({
              status: "error",
              code: "tool-timeout",
              summary: `The browser did not answer ${pending.call.toolName} within ${limits.toolDeadlineMs / 1000} s.`,
            });
          }
          // Followed at once by the next model turn's frames (or the next call): they go out together.
          send([answerToolCall(state, pending, callId, answer.result)], { linger: true });
          state.pending.shift();
          modelPhaseMarked = answer.modelPhaseMarked === true;
        }
        if (watch.signal.aborted) return await interrupted();
        if (state.stepTurns >= limits.maxTurnsPerStep)
          return await atLimit(`${limits.maxTurnsPerStep} model turns`);

        // Marked before the model's first frame goes out: a restart from here ends the run. The mark
        // is written while the model starts (its frames wait for it), unless the claim of the
        // result just answered wrote it.
        state.phase = "model";
        const marked = modelPhaseMarked ? Promise.resolve() : checkpoint();
        marked.catch(() => undefined); // Awaited below; this only keeps an early failure from going unhandled.
        const turn = await callLlm({
          ...nextTurn(),
          runAbort: watch.signal,
          timeoutMs: limits.modelStepTimeoutMs,
          writer,
          ready: marked,
          early: args.early,
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
