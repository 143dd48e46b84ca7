import { log } from "@coauthor/agent-workflow";
import { armRunTimeout } from "@coauthor/agent-workflow/server";
import { getWorld } from "workflow/runtime";
import { agentLimits } from "@/server/agent/limits";
import { superviseRun } from "@/server/agent/run-control";
import { findRun, listRunningRuns } from "@/server/runs";

const READY_POLL_MS = 200;
const READY_ATTEMPTS = 300;

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
 * different answer (the turns step sees that in its checkpoint).
 */
export async function recoverRuns(options: { localWorld: boolean }): Promise<void> {
  const running = await listRunningRuns();
  if (options.localWorld) {
    // The local world's queue lived in the dead process's memory: start() re-enqueues every
    // pending/running run from the data folder. An interrupted step runs again from its top and
    // carries on from its checkpoint (a run cut off mid model call ends with server-restarted).
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
