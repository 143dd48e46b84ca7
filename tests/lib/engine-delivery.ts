// Deliveries to the Workflow DevKit engine's queue routes, as its queue sends them: tests forge
// them to prove the routes answer only the engine.

/** The agent workflow's queue (its workflow id, as the generated manifest names it). */
export const AGENT_QUEUE = "__wkf_workflow_workflow//@coauthor/agent-workflow/workflow@0.1.0//agentWorkflow";

/**
 * A delivery of the agent workflow's queue for `runId` with an attempt count over the engine's
 * maximum (48): taken by the engine, it fails the run.
 */
export function forgedDelivery(runId: string, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-vqs-queue-name": AGENT_QUEUE,
      "x-vqs-message-id": `msg_01K${Date.now()}FORGED`,
      "x-vqs-message-attempt": "100",
      ...headers,
    },
    body: JSON.stringify({ runId, traceCarrier: {}, requestedAt: new Date().toISOString() }),
  };
}
