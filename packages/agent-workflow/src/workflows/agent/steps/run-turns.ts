import type { ModelMessage } from "ai";
import { agentStore } from "../../../agent-store.ts";
import { RUN_TIMEOUT_REASON } from "../../../hook-names.ts";
import { openRunWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { runSignal } from "../../../run-control.ts";
import { awaitToolResult } from "../../../tool-results.ts";
import type { AgentLimits, AgentRunOutcome, RequestedToolCall, RunEventBody } from "../types.ts";
import { callLlm, reasonOf } from "./call-llm.ts";
import { type ToolCallAudience, toolCallEvent } from "./tool-call-event.ts";
import { framesOf } from "./write-frames.ts";

/** Error code of a run whose model call was cut off (the server died mid-answer). */
export const SERVER_RESTARTED = "server-restarted";
const STOP_POLL_MS = 1_000;
// A model call cut off by a restart had streamed frames live that never became durable, under ids
// nobody can know now: the run's last frame jumps this far ahead, past anything a client saw.
const RESTART_ID_GAP = 100_000;

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
interface TurnsCheckpoint {
  segment: number;
  /** "model" while a model call is streaming: it cannot be resumed, only reported. */
  phase: "model" | "tools";
  nextId: number;
  turnIndex: number;
  messages: ModelMessage[];
  replies: string[];
  lastText: string;
  usage: Usage;
  toolCalls: number;
  pending: PendingCall[];
  /** Frames sent live but not yet durable when this was saved: sent again on resume (same ids). */
  unconfirmed: string;
}

/** What one turns step did: the workflow adds it to the run. */
export interface TurnsResult {
  nextId: number;
  turnIndex: number;
  /** Messages this step added to the conversation (model turns and tool results). */
  messages: ModelMessage[];
  replies: string[];
  lastText: string;
  usage: Usage;
  toolCalls: number;
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

/**
 * Turns step: model turns until the model answers without tool calls (one
 * plan step, or a whole run without a plan). Each tool call is announced with
 * a signed single-use token and its result awaited right here, in this step:
 * a tool round trip costs no workflow replay, whatever the run's length. Its
 * progress is saved after every turn and result (see TurnsCheckpoint).
 */
export async function runTurns(args: {
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
}): Promise<TurnsResult> {
  "use step";
  const { runId, limits } = args;
  const store = agentStore();
  const saved = (await store.loadCheckpoint(runId)) as TurnsCheckpoint | undefined;
  const resumed = saved?.segment === args.segment ? saved : undefined;
  const state: TurnsCheckpoint = resumed ?? {
    segment: args.segment,
    phase: "tools",
    nextId: args.firstId,
    turnIndex: args.turnIndex,
    messages: [],
    replies: [],
    lastText: "",
    usage: { inputTokens: 0, outputTokens: 0 },
    toolCalls: 0,
    pending: [],
    unconfirmed: "",
  };
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
  const writer = openRunWriter(runId);
  if (resumed?.unconfirmed) writer.send(resumed.unconfirmed);
  if (resumed?.phase === "model") {
    log.warn("model call cut off by a restart: ending the run", { runId });
    state.nextId += RESTART_ID_GAP;
    await writer.flush();
    writer.release();
    return result({
      status: "error",
      code: SERVER_RESTARTED,
      summary:
        "The server restarted while the model was answering; the run was stopped. Send the prompt again.",
    });
  }
  if (resumed) log.info("turns resumed", { runId, turn: state.turnIndex, pending: state.pending.length });

  const watch = watchRun(runId, args.runDeadline);
  const send = (bodies: RunEventBody[]) => {
    writer.send(framesOf(runId, state.nextId, bodies));
    state.nextId += bodies.length;
  };
  const checkpoint = () => store.saveCheckpoint(runId, { ...state, unconfirmed: writer.unconfirmed() });
  const interrupted = (): AgentRunOutcome =>
    reasonOf(watch.signal) === RUN_TIMEOUT_REASON
      ? { status: "timeout", summary: `Stopped after ${limits.runTimeoutMs / 1000} s (the run time limit).` }
      : { status: "cancelled", summary: "Stopped by the writer." };

  try {
    if (!resumed && args.leading.length > 0) send(args.leading);
    for (;;) {
      // The current turn's tool calls, one at a time, in order.
      while (state.pending[0]) {
        const pending = state.pending[0];
        if (!pending.announced) {
          const event = await toolCallEvent(pending.call, args.audience);
          pending.announced = { id: state.nextId, event };
          state.nextId++;
          state.toolCalls++;
          // Saved before it is announced: after a restart it goes out again under the same id and token.
          await checkpoint();
        }
        writer.send(framesOf(runId, pending.announced.id, [pending.announced.event]));
        const answer = await awaitToolResult(runId, pending.call.toolCallId, {
          deadline: pending.announced.event.deadline,
          signal: watch.signal,
        });
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
        const { ok, summary } = summarizeResult(answer.result);
        send([{ type: "tool-result", toolCallId: pending.call.toolCallId, ok, summary }]);
        state.messages.push(toolMessage(pending.call, answer.result));
        state.pending.shift();
        await checkpoint();
      }
      if (watch.signal.aborted) return result(interrupted());
      if (state.turnIndex >= limits.maxSteps) {
        return result({
          status: "timeout",
          summary: `Stopped after ${limits.maxSteps} steps (the step limit).`,
        });
      }

      state.phase = "model";
      await checkpoint();
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
      });
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
      state.phase = "tools";
      await checkpoint();
      if (calls.length === 0) return result();
    }
  } finally {
    watch.stop();
    try {
      await writer.flush();
    } finally {
      writer.release();
    }
  }
}
