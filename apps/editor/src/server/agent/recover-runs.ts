import { log } from "@coauthor/agent-workflow";
import { armRunTimeout } from "@coauthor/agent-workflow/server";
import { getRun } from "workflow/api";
import { getWorld } from "workflow/runtime";
import { agentLimits } from "@/server/agent/limits";
import { superviseRun } from "@/server/agent/run-control";
import { failRun, findRun, listRunningRuns } from "@/server/runs";

/** Error code of a run stopped because the server died while its model was answering. */
export const SERVER_RESTARTED = "server-restarted";

const READY_POLL_MS = 200;
const READY_ATTEMPTS = 300;
// The planner step announces the run and its plan: re-running it could announce another plan
// under ids the client has already shown (the engine re-runs an interrupted step from the start).
// The turns step resumes from its checkpoint by itself, and ends the run if its model was cut off.
const MODEL_STEP = /\/\/callPlanner$/;

async function waitUntilListening(port: string): Promise<boolean> {
  for (let attempt = 0; attempt < READY_ATTEMPTS; attempt++) {
    try {
      const response = await fetch(`http://localhost:${port}/api/health`);
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  return false;
}

/** Whether a step that streams model output was cut off mid-way (it is still marked running). */
async function modelStepInterrupted(runId: string): Promise<boolean> {
  const world = getWorld();
  let cursor: string | undefined;
  for (;;) {
    const page = await world.steps.list({ runId, resolveData: "none", pagination: { cursor } });
    if (page.data.some((step) => step.status === "running" && MODEL_STEP.test(step.stepName))) return true;
    if (!page.hasMore || !page.cursor) return false;
    cursor = page.cursor;
  }
}

/** Re-arms a recovered run's time limit (from its start), which lived in the dead process's timers. */
async function rearmRunTimeout(runId: string): Promise<void> {
  const run = await findRun(runId);
  if (run) armRunTimeout(runId, run.createdAt.getTime() + agentLimits().runTimeoutMs);
}

/**
 * Resumes what a previous server process left running (local world: one process, so nothing else
 * can be working on these runs). A run waiting for a tool result carries on: the world re-enqueues it,
 * its turns step resumes from its checkpoint and its time limit is re-armed here. A run cut off
 * while its model was answering ends with `error: server-restarted` instead of streaming a second,
 * different answer (the turns step sees that in its checkpoint; the planner is checked here).
 */
export async function recoverRuns(options: { localWorld: boolean }): Promise<void> {
  let running = await listRunningRuns();
  if (options.localWorld) {
    const ended = new Set<string>();
    for (const runId of running) {
      if (!(await modelStepInterrupted(runId))) continue;
      log.warn("cut off mid model call by a restart: ending it", { runId });
      await failRun(runId, SERVER_RESTARTED);
      await getRun(runId).cancel();
      ended.add(runId);
    }
    // Their end is recorded (failed, summary server-restarted): nothing left to supervise.
    running = running.filter((runId) => !ended.has(runId));
    // The local world's queue lived in the dead process's memory: start() re-enqueues every
    // pending/running run from the data folder.
    await getWorld().start?.();
  }
  for (const runId of running) {
    // Local world: this process is the only one, so the dead process's timers are ours to re-arm.
    // Postgres world: another live instance may own the run and its timers.
    if (options.localWorld) await rearmRunTimeout(runId);
    superviseRun(runId);
  }
  if (running.length > 0) log.info("resuming runs left running", { runs: running.length });
}

/** Starts `recoverRuns` once the server on `port` answers (never throws: failures are logged). */
export function recoverRunsWhenListening(options: { port: string; localWorld: boolean }): void {
  waitUntilListening(options.port)
    .then((listening) => {
      if (!listening) throw new Error(`the server on port ${options.port} never answered`);
      return recoverRuns(options);
    })
    .catch((error: unknown) => log.error("run recovery failed", { error }));
}

/** Why an ended run wrote no last frame: `server-restarted` when recovery stopped it, else null. */
export async function recoveryEndCode(runId: string): Promise<string | null> {
  const run = await findRun(runId);
  return run?.status === "failed" && run.summary === SERVER_RESTARTED ? SERVER_RESTARTED : null;
}
