import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

// Spans go through the OpenTelemetry API only: without a tracer provider (the app registers one
// when OTEL_EXPORTER_OTLP_ENDPOINT is set) every span is the API's no-op and costs next to nothing.

/** The attribute every span of a run carries (ours, and the AI SDK's through `runIdSpanProcessor`). */
export const RUN_ID_ATTRIBUTE = "coauthor.run_id";

/** The span names an operator sees, one per kind of work. */
export const SPAN = {
  /** The run's first step: the planner and, without a plan, every model turn and tool call. */
  runStart: "coauthor.run.start",
  /** A later turns step (a plan step, or a pipeline agent's turns). */
  runTurns: "coauthor.run.turns",
  /** The planner: which tools, and whether the request needs a plan (one structured model call). */
  plan: "coauthor.plan",
  /** One model turn (the AI SDK's own spans nest under it). */
  modelCall: "coauthor.model_call",
  /** One tool call: announced to the browser → its result taken (or the deadline, or Stop). */
  toolRoundTrip: "coauthor.tool_round_trip",
  /** The reflection after a plan step. */
  reflect: "coauthor.reflect",
  /** A pipeline's own steps (its agents' turns are `coauthor.run.turns`). */
  pipelineStart: "coauthor.pipeline.start",
  pipelineAgentOutput: "coauthor.pipeline.agent_output",
  pipelineParallelAgent: "coauthor.pipeline.parallel_agent",
} as const;

export type SpanName = (typeof SPAN)[keyof typeof SPAN];

const RUN_ID_KEY = createContextKey(RUN_ID_ATTRIBUTE);
const TRACER_NAME = "@coauthor/agent-workflow";

function tracer() {
  // Asked each time: the app may register its provider after this module loaded.
  return trace.getTracer(TRACER_NAME);
}

/** The run id the active context carries (set by `withSpan`), if any. */
export function runIdOf(ctx: Context): string | undefined {
  const value = ctx.getValue(RUN_ID_KEY);
  return typeof value === "string" ? value : undefined;
}

function recordFailure(span: Span, error: unknown) {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/**
 * Runs `work` inside a span of the run: the span is active while it runs (spans started inside,
 * the AI SDK's included, are its children) and the run id rides on the context for them.
 * A thrown error marks the span failed and is thrown on.
 */
export async function withSpan<T>(
  name: SpanName,
  runId: string,
  work: (span: Span) => Promise<T>,
  attributes: Attributes = {},
): Promise<T> {
  const parent = context.active().setValue(RUN_ID_KEY, runId);
  return tracer().startActiveSpan(
    name,
    { attributes: { ...attributes, [RUN_ID_ATTRIBUTE]: runId } },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * Runs synchronous `work` inside a span of the run, as `withSpan` does: what it starts (a model
 * call whose answer is read later) nests under the span and carries the run id.
 */
export function inSpan<T>(name: SpanName, runId: string, work: () => T, attributes: Attributes = {}): T {
  const parent = context.active().setValue(RUN_ID_KEY, runId);
  return tracer().startActiveSpan(
    name,
    { attributes: { ...attributes, [RUN_ID_ATTRIBUTE]: runId } },
    parent,
    (span) => {
      try {
        return work();
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * A span started now and ended later by the caller (for work whose start and end sit in
 * different places of a loop). Its parent is the active span. `end` may be called more than
 * once: the first call counts.
 */
export function startSpan(name: SpanName, runId: string, attributes: Attributes = {}) {
  const span = tracer().startSpan(name, { attributes: { ...attributes, [RUN_ID_ATTRIBUTE]: runId } });
  let ended = false;
  return {
    span,
    end(extra: Attributes = {}, failure?: string) {
      if (ended) return;
      ended = true;
      span.setAttributes(extra);
      if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      span.end();
    },
  };
}

/** The Workflow DevKit's own attribute for the run a span belongs to. */
const WORKFLOW_RUN_ID_ATTRIBUTE = "workflow.run.id";

/** What a span processor sees of a span (the SDK's spans have more). */
interface StartedSpan {
  setAttribute(key: string, value: string): unknown;
  readonly attributes?: Attributes;
}

/**
 * A span processor (for the SDK's tracer provider) that puts `coauthor.run_id` on the spans of a
 * run's work: every span started inside one of ours (the AI SDK's, the engine's stream writes)
 * takes it from the context, and the Workflow DevKit's own spans copy their `workflow.run.id`
 * when they start with one. Typed structurally, so this package needs the API only.
 */
export const runIdSpanProcessor = {
  onStart(span: StartedSpan, parentContext: Context): void {
    const own = span.attributes?.[WORKFLOW_RUN_ID_ATTRIBUTE];
    const runId = runIdOf(parentContext) ?? (typeof own === "string" ? own : undefined);
    if (runId !== undefined) span.setAttribute(RUN_ID_ATTRIBUTE, runId);
  },
  onEnd(): void {},
  forceFlush: (): Promise<void> => Promise.resolve(),
  shutdown: (): Promise<void> => Promise.resolve(),
};
