import type { ModelErrorCode } from "@coauthor/types";
import { SpanStatusCode } from "@opentelemetry/api";
import type { ModelMessage } from "ai";
import { agentEnv } from "../../../env.ts";
import type { RunWriter } from "../../../live/run-writer.ts";
import { log } from "../../../log.ts";
import { startModelCallDeadline } from "../../../models/model-call-deadline.ts";
import { classifyModelError, type ModelFailure, refusedAnswer } from "../../../models/provider-errors.ts";
import { modelCallAttributes } from "../../../telemetry/model-calls.ts";
import { SPAN, withSpan } from "../../../telemetry/tracing.ts";
import { type TokenUsage, usageOf, zeroUsage } from "../../../usage.ts";
import type { RequestedToolCall, RunEventBody } from "../types.ts";
import { createDeltaCoalescer } from "./coalesce.ts";
import type { EarlyTurn } from "./early-turn.ts";
import { requestModelStream } from "./model-stream.ts";
import { framesOf } from "./write-frames.ts";

// Deltas of a few ms go out as one frame: the live path sends each window at once, the durable
// stream joins whatever queued while its previous write was in flight.
const COALESCE_WINDOW_MS = 4;

/** One model turn: what it said and the tool calls it asked for. */
export interface LlmTurn {
  status: "ok" | "aborted" | "error";
  nextId: number;
  text: string;
  toolCalls: RequestedToolCall[];
  responseMessages: ModelMessage[];
  /** One sentence for the panel (status `error`). */
  errorMessage?: string;
  /** What kind of failure (status `error`). */
  errorCode?: ModelErrorCode;
  usage: TokenUsage;
}

/** What one model turn is asked: its place in the run, the conversation and the tools. */
interface LlmTurnArgs {
  runId: string;
  firstId: number;
  turn: number;
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: string[];
  /** A tool call's id in the run, from the model's own (the turns step makes them run-unique). */
  callIdOf: (modelCallId: string) => string;
  /** "none": the tools are described (the conversation uses them) but the model may not call one. */
  toolChoice?: "none";
  /** Aborted by Stop or the run time limit; its reason says which. */
  runAbort: AbortSignal;
  /** The model call's total time limit (silence is bounded by AGENT_MODEL_SILENCE_TIMEOUT_MS). */
  timeoutMs: number;
  writer: RunWriter;
  /** The turn's frames go out once this resolves (the step's model-phase mark is saved). */
  ready: Promise<void>;
  /** This turn asked for already (early-turn.ts): taken when it is the same call. */
  early?: EarlyTurn;
}

/**
 * One model turn (inside the turns step): one `streamText` call, in a `coauthor.model_call`
 * span. Text deltas go to the run's stream coalesced; tool calls are collected and returned
 * (never executed here: the browser runs them).
 */
export function callLlm(args: LlmTurnArgs): Promise<LlmTurn> {
  return withSpan(
    SPAN.modelCall,
    args.runId,
    async (span) => {
      const turn = await streamTurn(args);
      span.setAttributes(modelCallAttributes(turn));
      if (turn.status === "error") span.setStatus({ code: SpanStatusCode.ERROR, message: turn.errorCode });
      return turn;
    },
    { "coauthor.model_id": args.modelId, "coauthor.turn": args.turn },
  );
}

async function streamTurn(args: LlmTurnArgs): Promise<LlmTurn> {
  const { runId, runAbort, writer } = args;
  const deadline = startModelCallDeadline({
    silenceMs: agentEnv().AGENT_MODEL_SILENCE_TIMEOUT_MS,
    totalMs: args.timeoutMs,
  });
  const signal = AbortSignal.any([runAbort, deadline.signal]);
  const messageId = `${runId}:m${args.turn}`;
  let nextId = args.firstId;
  const write = async (bodies: RunEventBody[]) => {
    await args.ready;
    // The turn's tool calls, or the step's end, follow and flush them (see run-writer.ts).
    writer.send(framesOf(runId, nextId, bodies), { linger: true });
    nextId += bodies.length;
  };
  const coalescer = createDeltaCoalescer(write, COALESCE_WINDOW_MS);
  const inputTools = new Map<string, string>();
  let text = "";
  let failure: ModelFailure | undefined;
  const startedAt = Date.now();
  const logTurn = (turn: LlmTurn): LlmTurn => {
    const fields = {
      runId,
      turn: args.turn,
      status: turn.status,
      durationMs: Date.now() - startedAt,
      toolCalls: turn.toolCalls.length,
      usage: turn.usage,
    };
    if (turn.status === "error")
      log.warn("model turn failed", { ...fields, code: turn.errorCode, reason: failure?.detail });
    else log.info("model turn", fields);
    return turn;
  };
  /** A turn that ended without a usable answer (aborted or failed): what streamed so far, no calls. */
  const ended = (status: "aborted" | "error"): LlmTurn =>
    logTurn({
      nextId,
      text,
      toolCalls: [],
      responseMessages: [],
      usage: zero,
      status,
      ...(status === "error" ? { errorMessage: failure?.message, errorCode: failure?.code } : {}),
    });
  try {
    const result = args.early?.take(args, signal) ?? requestModelStream(args, signal);
    for await (const part of deadline.watch(result.fullStream)) {
      if (part.type === "text-delta") {
        text += part.text;
        coalescer.push({ type: "text-delta", messageId, delta: part.text });
      } else if (part.type === "tool-input-start") {
        inputTools.set(part.id, part.toolName);
      } else if (part.type === "tool-input-delta") {
        // Lets the editor preview a long insert while the model is still writing it.
        const toolName = inputTools.get(part.id) ?? "";
        coalescer.push({
          type: "tool-input-delta",
          toolCallId: args.callIdOf(part.id),
          toolName,
          delta: part.delta,
        });
      } else if (part.type === "error") {
        // A deadline's abort surfaces here as an abort error: the deadline itself is classified below.
        if (!deadline.signal.aborted) failure ??= classifyModelError(part.error);
      }
    }
    await coalescer.flush();
    if (runAbort.aborted) return ended("aborted");
    if (deadline.signal.aborted) failure ??= classifyModelError(deadline.signal.reason);
    if (failure) return ended("error");
    const [toolCalls, response, usage, finishReason] = await Promise.all([
      result.toolCalls,
      result.response,
      result.totalUsage,
      result.finishReason,
    ]);
    if (finishReason === "content-filter") {
      failure = refusedAnswer();
      return ended("error");
    }
    return logTurn({
      status: "ok",
      nextId,
      text,
      toolCalls: toolCalls.map((c) => ({ toolCallId: c.toolCallId, toolName: c.toolName, input: c.input })),
      responseMessages: response.messages,
      usage: usageOf(usage),
    });
  } catch (error) {
    await coalescer.flush();
    if (runAbort.aborted) return ended("aborted");
    failure = classifyModelError(deadline.signal.aborted ? deadline.signal.reason : error);
    return ended("error");
  } finally {
    deadline.dispose();
  }
}

const zero = zeroUsage();

/** The reason given to `abortRun` (a message), if any. */
export function reasonOf(signal: AbortSignal): string | undefined {
  return signal.reason instanceof Error ? signal.reason.message : undefined;
}
