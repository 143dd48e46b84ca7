import { metrics } from "@coauthor/agent-workflow/telemetry";
import type { RunStatus } from "@coauthor/types";

/** Counts an ended run under its outcome (`coauthor_agent_runs_total`). */
export function countRunEnd(status: Exclude<RunStatus, "running">): void {
  metrics().runs.inc({ outcome: status });
}

/** Counts an agent run refused at admission under its reason (`coauthor_agent_runs_refused_total`). */
export function countRunRefused(reason: "user_runs" | "document_runs" | "capacity"): void {
  metrics().runsRefused.inc({ reason });
}

/**
 * Starts the clock of an agent request: `firstDelta` records, once, the time until the response
 * writes its first text-delta (`coauthor_agent_first_delta_seconds`), what the writer waits for.
 */
export function firstDeltaClock(): { firstDelta: () => void } {
  const receivedAt = performance.now();
  let seen = false;
  return {
    firstDelta() {
      if (seen) return;
      seen = true;
      metrics().firstDelta.observe((performance.now() - receivedAt) / 1000);
    },
  };
}
