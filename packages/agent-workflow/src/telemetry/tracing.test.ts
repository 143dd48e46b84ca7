import { OpenTelemetry } from "@ai-sdk/otel";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { registerTelemetry } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { beginRunStart } from "../pipelines/opening-step.ts";
import { deliverToolResult } from "../tool-results.ts";
import { agentWorkflow } from "../workflows/agent/index.ts";
import { collectEvents, registerScriptedModel, TEST_LIMITS } from "../workflows/agent/test-harness.ts";
import type { AgentWorkflowInput } from "../workflows/agent/types.ts";
import { metrics } from "./metrics.ts";
import { RUN_ID_ATTRIBUTE, runIdSpanProcessor, SPAN } from "./tracing.ts";

// What an operator's collector would receive: the app's setup (instrumentation-tracing.ts) with an
// in-memory exporter in place of OTLP.
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({
  spanProcessors: [runIdSpanProcessor, new SimpleSpanProcessor({ exporter })],
});
const contextManager = new AsyncLocalStorageContextManager();
const SDK_INTEGRATIONS = "AI_SDK_TELEMETRY_INTEGRATIONS";

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry());
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  Reflect.deleteProperty(globalThis, SDK_INTEGRATIONS);
});
beforeEach(() => exporter.reset());

const input = (modelId: string): AgentWorkflowInput => ({
  userId: "u1",
  documentId: "d1",
  prompt: "append a paragraph",
  messages: [],
  modelId,
  limits: { ...TEST_LIMITS },
});

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentOf = (spans: ReadableSpan[], span: ReadableSpan) =>
  spans.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);

describe("tracing an agent run", () => {
  it("puts the planner, each model call and each tool round trip under the run's step, each with the run id", async () => {
    const model = registerScriptedModel("scripted-traced", [
      {
        text: "Adding it.",
        toolCalls: [
          { toolCallId: "c1", toolName: "insertBlocks", input: { markdown: "Hi", position: { at: "end" } } },
        ],
      },
      { text: "Done." },
    ]);
    const roundTripsBefore = await resultCount();
    try {
      const run = await start(agentWorkflow, [input("scripted-traced")]);
      await collectEvents(run.getReadable<string>(), async (event) => {
        if (event.type === "tool-call")
          await deliverToolResult(run.runId, event.toolCallId, { ok: true, blockIds: ["b00000001"] });
      });
      expect(await run.returnValue).toMatchObject({ status: "done" });
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();

      const [step, ...moreSteps] = named(spans, SPAN.runStart);
      expect(step).toBeDefined();
      expect(moreSteps).toEqual([]);
      if (!step) return;
      const plans = named(spans, SPAN.plan);
      const modelCalls = named(spans, SPAN.modelCall);
      const roundTrips = named(spans, SPAN.toolRoundTrip);
      expect(plans).toHaveLength(1);
      expect(modelCalls).toHaveLength(2);
      expect(roundTrips).toHaveLength(1);
      for (const span of [...plans, ...modelCalls, ...roundTrips]) expect(parentOf(spans, span)).toBe(step);
      expect(modelCalls.map((span) => span.attributes["coauthor.turn"])).toEqual([0, 1]);
      expect(roundTrips[0]?.attributes).toMatchObject({
        // The run-unique id the browser sees (the turns step prefixes the model's own).
        "coauthor.tool_call_id": expect.stringMatching(/\.c1$/),
        "coauthor.tool_name": "insertBlocks",
        "coauthor.outcome": "result",
      });

      // The AI SDK's own spans: the planner's structured call under the plan, the first turn
      // (asked for while the planner decided, see early-turn.ts) under the step, each later turn
      // under its model call, all in the run's trace.
      const sdkSpans = spans.filter((span) => span.attributes["gen_ai.operation.name"] !== undefined);
      expect(sdkSpans.length).toBeGreaterThan(0);
      const plan = plans[0];
      expect(sdkSpans.some((span) => plan && parentOf(spans, span) === plan)).toBe(true);
      expect(
        sdkSpans.some((span) => span.name.startsWith("invoke_agent") && parentOf(spans, span) === step),
      ).toBe(true);
      for (const call of modelCalls.slice(1))
        expect(sdkSpans.some((span) => parentOf(spans, span) === call)).toBe(true);
      for (const span of [...plans, ...modelCalls, ...roundTrips, ...sdkSpans]) {
        expect(span.spanContext().traceId).toBe(step.spanContext().traceId);
      }
      expectRunIdOnTrace(spans, step, run.runId);
      // The tool round trip was counted in the metrics too.
      expect(await resultCount()).toBe(roundTripsBefore + 1);
    } finally {
      model.unregister();
    }
  });

  it("traces the first step begun by the route that started the run as the step's own span, with the run id", async () => {
    const model = registerScriptedModel("scripted-traced-begun", [{ text: "Done." }]);
    try {
      const runInput = { ...input("scripted-traced-begun"), earlyStart: true };
      const run = await start(agentWorkflow, [runInput]);
      beginRunStart(run.runId, runInput);
      await collectEvents(run.getReadable<string>());
      expect(await run.returnValue).toMatchObject({ status: "done" });
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      // One run-start span: the route's work, which the step took over (it did not start another).
      const [runStart, ...more] = named(spans, SPAN.runStart);
      expect(runStart).toBeDefined();
      expect(more).toEqual([]);
      if (!runStart) return;
      const plans = named(spans, SPAN.plan);
      expect(plans).toHaveLength(1);
      expect(plans.map((span) => parentOf(spans, span))).toEqual([runStart]);
      const invoked = spans.filter((span) => span.name.startsWith("invoke_agent"));
      expect(invoked.filter((span) => parentOf(spans, span) === runStart)).toHaveLength(1);
      expect(named(spans, SPAN.modelCall)).toHaveLength(1);
      expectRunIdOnTrace(spans, runStart, run.runId);
    } finally {
      model.unregister();
    }
  });

  it("traces a planned run's turns steps and reflections", async () => {
    const model = registerScriptedModel("scripted-traced-plan", [{ text: "Read." }, { text: "Wrote." }], {
      plan: '{"goal":"g","steps":[{"description":"read"},{"description":"write"}]}',
    });
    try {
      const run = await start(agentWorkflow, [input("scripted-traced-plan")]);
      await collectEvents(run.getReadable<string>());
      expect(await run.returnValue).toMatchObject({ status: "done" });
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      const turns = named(spans, SPAN.runTurns);
      expect(turns).toHaveLength(2);
      expect(named(spans, SPAN.reflect)).toHaveLength(2);
      for (const step of turns) {
        const calls = named(spans, SPAN.modelCall).filter((span) => parentOf(spans, span) === step);
        expect(calls).toHaveLength(1);
      }
      for (const step of turns) expectRunIdOnTrace(spans, step, run.runId);
    } finally {
      model.unregister();
    }
  });
});

/** How many tool round trips ended with a result, as the metrics count them. */
async function resultCount(): Promise<number> {
  const { values } = await metrics().toolRoundTrip.get();
  const count = values.find(
    (value) =>
      value.metricName === "coauthor_tool_round_trip_seconds_count" && value.labels.outcome === "result",
  );
  return count?.value ?? 0;
}

/** Every span of a step's work carries the run id: ours, the AI SDK's, the engine's stream writes. */
function expectRunIdOnTrace(spans: ReadableSpan[], step: ReadableSpan, runId: string) {
  const within = (span: ReadableSpan): boolean => {
    const parent = parentOf(spans, span);
    return parent === step || (parent !== undefined && within(parent));
  };
  const work = [step, ...spans.filter(within)];
  expect(work.length).toBeGreaterThan(5);
  for (const span of work) expect(span.attributes[RUN_ID_ATTRIBUTE], span.name).toBe(runId);
}
