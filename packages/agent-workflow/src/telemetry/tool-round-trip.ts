import { metrics } from "./metrics.ts";
import { SPAN, startSpan } from "./tracing.ts";

/** How a tool round trip ended: the wait's answer, or `error` when the step failed meanwhile. */
export type RoundTripOutcome = "result" | "timeout" | "aborted" | "error";

/**
 * Times one tool call from its announcement to its result: a `coauthor.tool_round_trip` span
 * and the `coauthor_tool_round_trip_seconds` histogram. Start it before announcing; `end` with the
 * wait's outcome (later calls are ignored, so a `finally` may end it as `error` unconditionally).
 */
export function startToolRoundTrip(runId: string, toolCallId: string, toolName: string) {
  const startedAt = performance.now();
  const span = startSpan(SPAN.toolRoundTrip, runId, {
    "coauthor.tool_call_id": toolCallId,
    "coauthor.tool_name": toolName,
  });
  let ended = false;
  return {
    end(outcome: RoundTripOutcome) {
      if (ended) return;
      ended = true;
      metrics().toolRoundTrip.observe({ outcome }, (performance.now() - startedAt) / 1000);
      // A Stop is the writer's choice, not a failure; a deadline passed or a failed step is.
      const failed = outcome === "timeout" || outcome === "error";
      span.end({ "coauthor.outcome": outcome }, failed ? outcome : undefined);
    },
  };
}
