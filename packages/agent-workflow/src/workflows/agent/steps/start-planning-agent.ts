import { getWritable } from "workflow";
import { type PlanningStart, type PlanningStartArgs, planningAgentStart } from "./planning-agent-start.ts";
import { adoptEarlyStart } from "./run-start-early.ts";
import { STEP_RETRIES } from "./step-retries.ts";

export type { PlanningStart } from "./planning-agent-start.ts";
export type { PlanningDecision } from "./turns-checkpoint.ts";

/**
 * A planning agent's first step (planning-agent-start.ts does its work). On the local world the
 * route that started the run has begun that work already (run-start-early.ts): the step then only
 * gives it the step's stream, where its frames become durable, and returns what it returns.
 */
export async function startPlanningAgent(args: PlanningStartArgs): Promise<PlanningStart> {
  "use step";
  const durable = getWritable<string>().getWriter();
  try {
    return await (adoptEarlyStart(args, durable) ??
      planningAgentStart(args, { durable, resume: true, stopsReachSignal: false }));
  } finally {
    // Released by the work's writer once its frames are durable, but not when it failed before it
    // had one (the lease, the checkpoint's read): the engine waits for the stream's lock.
    durable.releaseLock();
  }
}

// A restart runs a step again and counts as one of its attempts (it resumes from its checkpoint).
startPlanningAgent.maxRetries = STEP_RETRIES;
