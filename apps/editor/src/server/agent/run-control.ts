import { log } from "@coauthor/agent-workflow";
import { abandonRunStart, abortRun, disarmRun, forgetRun, notifyStop } from "@coauthor/agent-workflow/server";
import { type FinishStatus, finishStatusSchema, type RunStatus } from "@coauthor/types";
import { getRun } from "workflow/api";
import { WorkflowRunNotFoundError } from "workflow/errors";
import { forgetRunState } from "@/server/agent/agent-store";
import { answerInThread } from "@/server/agent/thread-answers";
import { countRunEnd } from "@/server/observability/run-metrics";
import { recordRunOutcome, runAnswerOf } from "@/server/run-history";
import { finishRun } from "@/server/runs";
import { saveRunVersion } from "@/server/versions";
import { noteRunEnded } from "@/server/workflow/engine-state-purge";

const SUPERVISE_POLL_MS = 1_000;
const SUPERVISED = Symbol.for("coauthor.supervised-runs");

/**
 * Cancels a run: records it as cancelled, interrupts its in-flight work in
 * this process at once and signals the other instances, whose running step
 * then reads the stored status; the step ends and the workflow writes `finish: cancelled`.
 * The SSE route's watchdog covers a run whose engine died. Only Stop and a
 * new prompt call this: a client that goes away does not.
 */
export async function cancelAgentRun(runId: string, reason: string): Promise<void> {
  await finishRun(runId, "cancelled");
  abortRun(runId, reason);
  notifyStop(runId);
}

type EndedStatus = Exclude<RunStatus, "running">;

/** How an ended workflow run went: its status and return value (`null` while it still runs). */
async function runEnd(runId: string): Promise<{ status: EndedStatus; outcome: unknown } | null> {
  const run = getRun(runId);
  let status: string;
  try {
    status = await run.status;
  } catch (error) {
    // The engine lost the run (its data folder was emptied): it can never finish.
    if (WorkflowRunNotFoundError.is(error)) return { status: "failed", outcome: undefined };
    throw error;
  }
  if (status === "cancelled" || status === "failed") return { status, outcome: undefined };
  if (status !== "completed") return null;
  const outcome: unknown = await run.returnValue;
  return { status: statusOfOutcome(outcome), outcome };
}

/** The run status a workflow's return value reports (`error` is a failure). */
function statusOfOutcome(outcome: unknown): EndedStatus {
  const reported =
    typeof outcome === "object" && outcome !== null && "status" in outcome ? outcome.status : undefined;
  if (reported === "error") return "failed";
  const parsed = finishStatusSchema.safeParse(reported);
  return parsed.success ? parsed.data : "failed";
}

const RECORDING = Symbol.for("coauthor.recording-run-ends");
// The engine reports a run's end a few milliseconds after its finish frame: asked again soon, then
// less often. A writer's next prompt on the document waits for this (run-admission).
const END_POLL_FIRST_MS = 5;
const END_POLL_MAX_MS = 50;

/**
 * Records an ended run, once per process however many watchers see the end
 * (the POST stream, the supervisor, the active-run lookup): its status from
 * the engine, then its tool calls, tokens and conversation exchange. With
 * `waitMs`, waits that long for the engine to report the end (the run's last
 * frame arrives a moment before). Resolves whether the run had ended.
 */
export function recordRunEnd(runId: string, waitMs = 0): Promise<boolean> {
  const holder = globalThis as typeof globalThis & { [RECORDING]?: Map<string, Promise<boolean>> };
  holder[RECORDING] ??= new Map();
  const recording = holder[RECORDING];
  const pending = recording.get(runId);
  if (pending) return pending;
  const attempt = (async () => {
    const until = Date.now() + waitMs;
    let end = await runEnd(runId);
    for (let pause = END_POLL_FIRST_MS; end === null && Date.now() < until; pause *= 2) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, END_POLL_MAX_MS)));
      end = await runEnd(runId);
    }
    if (end === null) return false;
    await recordRunOutcome(runId, end.status, end.outcome);
    // What the run left, as a version beside the one taken before it (not awaited).
    void saveRunVersion(runId, "after");
    // A run asked from a comment answers in its thread (not awaited: logged).
    answerInThread(runId, runAnswerOf(end.outcome)).catch((error: unknown) =>
      log.error("could not post a run's answer in its thread", { runId, error }),
    );
    countRunEnd(end.status);
    await forgetRunState(runId);
    // What this process kept for the run (its last step may have run on another instance), and
    // work its route began that no step took over (the run ended before its first step).
    abandonRunStart(runId, "the run ended before its first step");
    disarmRun(runId);
    forgetRun(runId);
    noteRunEnded(runId);
    return true;
  })();
  recording.set(runId, attempt);
  // Only a recorded end stays memoised; a run still going may be asked again later.
  attempt.then(
    (ended) => {
      if (!ended) recording.delete(runId);
    },
    () => recording.delete(runId),
  );
  return attempt;
}

/**
 * A run's stream sent its last frame: the status a finish frame reports goes into the run's row at
 * once, so the writer's next prompt is admitted without waiting for the engine (run-admission
 * settles only rows still marked running); the rest once the engine reports the end.
 */
export async function recordStreamEnd(runId: string, reported: FinishStatus | undefined, waitMs: number) {
  if (reported) await finishRun(runId, reported);
  await recordRunEnd(runId, waitMs);
}

function supervised(): Set<string> {
  const holder = globalThis as typeof globalThis & { [SUPERVISED]?: Set<string> };
  holder[SUPERVISED] ??= new Set();
  return holder[SUPERVISED];
}

/**
 * Records a run's end in the database whoever watches it: runs outlive their
 * client (a closed tab does not cancel), so the end cannot rely on an open
 * SSE response. Idempotent per process; the first recorded end wins.
 */
export function superviseRun(runId: string): void {
  const runs = supervised();
  if (runs.has(runId)) return;
  runs.add(runId);
  const timer = setInterval(() => {
    recordRunEnd(runId)
      .then((ended) => {
        if (!ended) return;
        clearInterval(timer);
        runs.delete(runId);
      })
      .catch((error: unknown) => log.error("supervision failed", { runId, error }));
  }, SUPERVISE_POLL_MS);
}
