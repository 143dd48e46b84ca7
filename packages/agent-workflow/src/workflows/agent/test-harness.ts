// Test helpers for driving agent runs in-process (@workflow/vitest world).
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { RunEvent } from "@coauthor/types";
import { createRunEventParser } from "@coauthor/types/sse";
import { MockLanguageModelV4 } from "ai/test";
import { registerModel } from "../../models/registry.ts";
import { isEarlyTurnDropped } from "./steps/early-turn.ts";
import type { AgentLimits } from "./types.ts";

/** Limits for test runs: the server's defaults with a shorter tool deadline. */
export const TEST_LIMITS: AgentLimits = {
  maxPlanSteps: 8,
  maxTurnsPerStep: 25,
  maxToolCallsPerTurn: 5,
  maxToolCallsPerRun: 100,
  toolDeadlineMs: 20_000,
  modelStepTimeoutMs: 30_000,
  maxReplans: 2,
  runTimeoutMs: 600_000,
};

/** One scripted model turn: text then optional tool calls. */
export interface ScriptTurn {
  text: string;
  toolCalls?: { toolCallId: string; toolName: string; input: unknown }[];
}

function streamOf(turn: ScriptTurn): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...turn.text
      .split(/(?<=\s)/)
      .map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "t", delta })),
    { type: "text-end", id: "t" },
    ...(turn.toolCalls ?? []).map(
      (c): LanguageModelV4StreamPart => ({
        type: "tool-call",
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        input: JSON.stringify(c.input),
      }),
    ),
    {
      type: "finish",
      finishReason: { unified: turn.toolCalls?.length ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
    },
  ];
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** Structured answers of a scripted model (JSON text, parsed by the workflow). */
export interface ScriptedPlanning {
  /** The planner's answer; default: no plan. */
  plan?: string;
  /** One reflection per plan step, in order; default: continue. */
  reflections?: string[];
}

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** A planner's answer that the task needs no plan (a model's `doGenerate` result). */
export function noPlanAnswer() {
  return {
    content: [{ type: "text" as const, text: '{"goal":"","steps":[]}' }],
    finishReason: { unified: "stop" as const, raw: undefined },
    usage: usage(3, 2),
    warnings: [],
  };
}

/** Registers a scripted model: each streamed call plays the next turn; planner/reflection calls answer JSON. */
export function registerScriptedModel(id: string, turns: ScriptTurn[], planning: ScriptedPlanning = {}) {
  let next = 0;
  let reflection = 0;
  let dropped = 0;
  const calls: number[] = [];
  const systems: string[] = [];
  const unregister = registerModel(
    id,
    () =>
      new MockLanguageModelV4({
        doStream: async (options) => {
          const scripted = turns[Math.min(next, turns.length - 1)] ?? { text: "" };
          // Like a real model, it calls no tool when the call says it may not (the run's last words).
          const turn = options.toolChoice?.type === "none" ? { text: scripted.text } : scripted;
          // A first turn asked for early and dropped unread (the task got a plan) gives its
          // scripted turn back: the plan's first step plays it.
          const signal = options.abortSignal;
          const droppedEarly = () => isEarlyTurnDropped(signal?.reason);
          if (signal?.aborted) {
            if (droppedEarly()) dropped++;
            return { stream: streamOf(turn) };
          }
          const call = next++;
          calls.push(call);
          systems.push(options.prompt.find((m) => m.role === "system")?.content ?? "");
          signal?.addEventListener("abort", () => {
            if (!droppedEarly() || next !== call + 1) return;
            next = call;
            calls.pop();
            systems.pop();
            dropped++;
          });
          return { stream: streamOf(turn) };
        },
        doGenerate: async (options) => {
          const name = options.responseFormat?.type === "json" ? options.responseFormat.name : undefined;
          const text =
            name === "plan"
              ? (planning.plan ?? '{"goal":"","steps":[]}')
              : (planning.reflections?.[reflection++] ?? '{"decision":"continue"}');
          return {
            content: [{ type: "text", text }],
            finishReason: { unified: "stop", raw: undefined },
            usage: usage(3, 2),
            warnings: [],
          };
        },
      }),
  );
  return {
    unregister,
    calls,
    systems,
    /** Early first turns the workflow dropped unread (see early-turn.ts). */
    dropped: () => dropped,
  };
}

/** Reads a run's stream, calling `onEvent` for each event, until it ends. */
export async function collectEvents(
  readable: ReadableStream<string>,
  onEvent?: (event: RunEvent) => void | Promise<void>,
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const queue: RunEvent[] = [];
  const parser = createRunEventParser({
    onEvent: (event) => queue.push(event),
    onInvalid: (error) => {
      throw new Error(`invalid frame: ${error.message}`);
    },
  });
  const reader = readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
    while (queue.length > 0) {
      const event = queue.shift() as RunEvent;
      events.push(event);
      await onEvent?.(event);
    }
  }
  return events;
}
