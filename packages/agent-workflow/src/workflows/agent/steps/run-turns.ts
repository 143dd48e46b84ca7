import type { ModelMessage } from "ai";
import { agentStore, isLocalWorld } from "../../../agent-store.ts";
import { interruptedOutcome, RUN_TIMEOUT_REASON } from "../../../hook-names.ts";
import { openRunWriter, type RunWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { runSignal } from "../../../run-control.ts";
import { listenForToolResult } from "../../../tool-results.ts";
import type {
  AgentLimits,
  AgentRunOutcome,
  AgentWorkflowInput,
  RequestedToolCall,
  RunEventBody,
} from "../types.ts";
import { callLlm, reasonOf } from "./call-llm.ts";
import { type PlannerResult, planFrame, planRun } from "./call-planner.ts";
import { type ToolCallAudience, toolCallEvent } from "./tool-call-event.ts";
import { framesOf } from "./write-frames.ts";

/** Error code of a run whose model call was cut off (the server died mid-answer). */
export const SERVER_RESTARTED = "server-restarted";
// Stop reaches a step in this process through its signal; the stored status is the way in from
// other instances (a shared world), and a safety net on the local world.
const STOP_POLL_MS = isLocalWorld() ? 5_000 : 1_000;
// A model call cut off by a restart had streamed frames live that never became durable, under ids
// nobody can know now: the run's last frame jumps this far ahead, past anything a client saw.
const RESTART_ID_GAP = 100_000;
const STEP_RETRIES = 8;

type Usage = { inputTokens: number; outputTokens: number };

/** A tool call of the current turn, and its `tool-call` event once announced (re-sent after a restart). */
interface PendingCall {
  call: RequestedToolCall;
  announced?: { id: number; event: Extract<RunEventBody, { type: "tool-call" }> };
}

/**
 * What the turns step has done so far, saved after every model turn and tool
 * result. A step re-run after a restart (the engine runs an interrupted step
 * again from the top) carries on from here: answered tool calls never run
 * twice, and the one still waiting is announced again under its own id.
 */
/** What a turns step has added to the run so far. */
interface TurnsProgress {
  nextId: number;
  turnIndex: number;
  /** Messages this step added to the conversation (model turns and tool results). */
  messages: ModelMessage[];
  replies: string[];
  lastText: string;
  usage: Usage;
  toolCalls: number;
}

interface TurnsCheckpoint extends TurnsProgress {
  runId: string;
  segment: number;
  /** "model" while a model call is streaming: it cannot be resumed, only reported. */
  phase: "model" | "tools" | "done";
  pending: PendingCall[];
  /** Frames that may not have been durable when this was saved: sent again on resume (same ids). */
  unconfirmed: string;
  /** The run's plan decision (first step only): a resumed first step does not plan again. */
  planner?: PlannerResult;
}

/** What one turns step did: the workflow adds it to the run. */
export interface TurnsResult extends TurnsProgress {
  /** Set when the run must end (Stop, a limit, a failure). */
  end?: AgentRunOutcome;
}

function summarizeResult(result: unknown): { ok: boolean; summary: string } {
  if (typeof result === "object" && result !== null && "ok" in result) {
    if (result.ok === false) {
      const message = "message" in result ? String(result.message) : "failed";
      return { ok: false, summary: message.slice(0, 200) };
    }
    return { ok: true, summary: "ok" };
  }
  return { ok: false, summary: "malformed result" };
}

function toolMessage(call: RequestedToolCall, result: unknown): ModelMessage {
  return {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "json", value: JSON.parse(JSON.stringify(result ?? null)) },
      },
    ],
  };
}

/** Aborts when the writer's Stop is recorded (seen from any instance) or the run's time is up. */
function watchRun(runId: string, runDeadline: number) {
  const controller = new AbortController();
  const abort = (reason: string) => {
    if (!controller.signal.aborted) controller.abort(new Error(reason));
  };
  const deadline = setTimeout(() => abort(RUN_TIMEOUT_REASON), Math.max(0, runDeadline - Date.now()));
  const poll = setInterval(() => {
    agentStore()
      .isStopped(runId)
      .then((stopped) => stopped && abort("stopped by the writer"))
      .catch((error: unknown) => log.warn("stop check failed", { runId, error }));
  }, STOP_POLL_MS);
  return {
    signal: AbortSignal.any([runSignal(runId), controller.signal]),
    stop() {
      clearTimeout(deadline);
      clearInterval(poll);
    },
  };
}

interface TurnsArgs {
  runId: string;
  /** Which turns step of the run this is (checkpoints of an earlier one are ignored). */
  segment: number;
  firstId: number;
  turnIndex: number;
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
}

function freshState(runId: string, segment: number, firstId: number, turnIndex: number): TurnsCheckpoint {
  return {
    runId,
    segment,
    phase: "tools",
    nextId: firstId,
    turnIndex,
    messages: [],
    replies: [],
    lastText: "",
    usage: { inputTokens: 0, outputTokens: 0 },
    toolCalls: 0,
    pending: [],
    unconfirmed: "",
  };
}

async function savedState(runId: string, segment: number): Promise<TurnsCheckpoint | undefined> {
  const saved = await agentStore().loadProgress(runId);
  if (saved?.segment !== segment) return undefined;
  return {
    ...(saved.state as Omit<TurnsCheckpoint, "messages">),
    messages: saved.messages as ModelMessage[],
  };
}

/**
 * Saves a step's progress: its state, and the messages added since the last
 * save (`persisted` of them are saved already). A snapshot: the step goes on
 * changing `state` while the store writes it.
 */
function saveState(state: TurnsCheckpoint, persisted: number, writer: RunWriter): Promise<void> {
  const { messages, ...rest } = state;
  return agentStore().saveProgress(
    state.runId,
    state.segment,
    structuredClone({ ...rest, unconfirmed: writer.unconfirmed() }),
    { from: persisted, items: structuredClone(messages.slice(persisted)) },
  );
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
  const resumed = await savedState(args.runId, args.segment);
  return withWriter(args.runId, (writer) =>
    continueTurns(
      args,
      resumed ?? freshState(args.runId, args.segment, args.firstId, args.turnIndex),
      !!resumed,
      writer,
    ),
  );
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
  const resumed = await savedState(runId, 0);
  return withWriter(runId, async (writer) => {
    let state = resumed;
    if (!state?.planner) {
      const planner = await planRun(runId, input, args.messages, writer);
      state = { ...freshState(runId, 0, planner.nextId, 0), planner };
      // Saved before the plan goes out: a resumed step announces the same plan again.
      await saveState(state, 0, writer);
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
  if (resumed && state.phase === "done") return result();
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
      const saved = saveState(state, persisted, writer);
      persisted = state.messages.length;
      return saved;
    };
    const interrupted = (): AgentRunOutcome =>
      interruptedOutcome(reasonOf(watch.signal), limits.runTimeoutMs);

    try {
      if (!wasResumed && args.leading.length > 0) send(args.leading);
      for (;;) {
        // The current turn's tool calls, one at a time, in order.
        while (state.pending[0]) {
          const pending = state.pending[0];
          const listener = listenForToolResult(runId, pending.call.toolCallId);
          const fresh = !pending.announced;
          let answer: Awaited<ReturnType<typeof listener.wait>>;
          try {
            if (pending.announced) {
              // Resumed after a restart: announced again under its own id and token (clients dedupe).
              writer.send(framesOf(runId, pending.announced.id, [pending.announced.event]));
            } else {
              const event = await toolCallEvent(pending.call, args.audience);
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
          if (answer.kind === "aborted") return result(interrupted());
          if (answer.kind === "timeout") {
            log.warn("tool deadline passed", { runId, toolCallId: pending.call.toolCallId });
            return result({
              status: "error",
              code: "tool-timeout",
              summary: `The browser did not answer ${pending.call.toolName} within ${limits.toolDeadlineMs / 1000} s.`,
            });
          }
          // The callback route validated the result with the tool's zod schema before recording it.
          // Not saved here: the result is in the store, so a resumed step takes it from there again.
          const { ok, summary } = summarizeResult(answer.result);
          send([{ type: "tool-result", toolCallId: pending.call.toolCallId, ok, summary }]);
          state.messages.push(toolMessage(pending.call, answer.result));
          state.pending.shift();
        }
        if (watch.signal.aborted) return result(interrupted());
        if (state.turnIndex >= limits.maxSteps) {
          return result({
            status: "timeout",
            summary: `Stopped after ${limits.maxSteps} steps (the step limit).`,
          });
        }

        // Marked before the model's first frame goes out: a restart from here ends the run. The mark
        // is written while the model starts (its frames wait for it).
        state.phase = "model";
        const marked = checkpoint();
        marked.catch(() => undefined); // Awaited below; this only keeps an early failure from going unhandled.
        const turn = await callLlm({
          runId,
          firstId: state.nextId,
          turn: state.turnIndex,
          modelId: args.modelId,
          system: args.system,
          messages: [...args.messages, ...state.messages],
          tools: args.tools,
          runAbort: watch.signal,
          timeoutMs: limits.modelStepTimeoutMs,
          writer,
          ready: marked,
        });
        await marked;
        state.nextId = turn.nextId;
        state.turnIndex++;
        state.usage.inputTokens += turn.usage.inputTokens;
        state.usage.outputTokens += turn.usage.outputTokens;
        if (turn.status === "aborted") return result(interrupted());
        if (turn.status === "error") {
          return result({ status: "error", code: "model-error", summary: turn.errorMessage });
        }
        state.messages.push(...turn.responseMessages);
        state.lastText = turn.text.trim();
        if (state.lastText) state.replies.push(state.lastText);
        const calls = turn.toolCalls.slice(0, limits.maxToolCallsPerStep);
        for (const skipped of turn.toolCalls.slice(limits.maxToolCallsPerStep)) {
          const refusal = {
            ok: false,
            code: "too-many-tool-calls",
            message: `at most ${calls.length} tool calls per step`,
          };
          state.messages.push(toolMessage(skipped, refusal));
        }
        state.pending = calls.map((call) => ({ call }));
        state.phase = calls.length > 0 ? "tools" : "done";
        if (state.phase === "done") {
          await checkpoint();
          return result();
        }
      }
    } finally {
      watch.stop();
    }
  }
}

// A restart runs a step again and counts as one of its attempts: these steps resume from their
// checkpoint, so they may take a few more than the default three retries.
startRun.maxRetries = STEP_RETRIES;
runTurns.maxRetries = STEP_RETRIES;
