import { createHook, getWorkflowMetadata, getWritable, sleep } from "workflow";
import { scratchCancelToken, scratchHookToken } from "./names.ts";
import { scratchFinish, scratchTurn } from "./steps.ts";

/** What the scratch benchmark varies (benchmark only, never used by the product). */
export interface ScratchArgs {
  calls: number;
  /**
   * How the tool deadline is kept: "per-call" races every hook with its own
   * `sleep()` (the agent workflow today), "run" races every hook with one
   * `sleep()` created once per run, "none" has no durable timer (the deadline
   * is kept outside the workflow).
   */
  deadline: "per-call" | "run" | "none";
  deadlineMs: number;
  /** Bytes of conversation each call adds; the whole history goes into every turn step. */
  historyBytes: number;
  /** Create the call's hook before the step that announces it (else after, as the agent does). */
  hookFirst: boolean;
  /** Also hand frames to the SSE response in process (live path). */
  live: boolean;
}

type Outcome = { kind: "result" } | { kind: "cancelled" } | { kind: "timeout" };
const RESULT: Outcome = { kind: "result" };
const CANCELLED: Outcome = { kind: "cancelled" };
const TIMED_OUT: Outcome = { kind: "timeout" };

/** Benchmark scratch loop: the agent's tool-call pattern with the variations of `ScratchArgs`. */
export async function benchScratchWorkflow(args: ScratchArgs): Promise<number> {
  "use workflow";
  const { workflowRunId: runId } = getWorkflowMetadata();
  const writable = getWritable<string>();
  const cancelHook = createHook<{ reason: string }>({ token: scratchCancelToken(runId) });
  const cancelled = cancelHook.then(() => CANCELLED);
  const runDeadline = args.deadline === "run" ? sleep(args.deadlineMs).then(() => TIMED_OUT) : undefined;
  const history: string[] = [];
  const filler = "x".repeat(args.historyBytes);
  let id = 0;
  for (let call = 1; call <= args.calls; call++) {
    const token = scratchHookToken(runId, call);
    let hook = args.hookFirst ? createHook<{ ok: boolean }>({ token }) : undefined;
    id = await scratchTurn(writable, { runId, id, call, history, live: args.live });
    hook ??= createHook<{ ok: boolean }>({ token });
    const racers: Promise<Outcome>[] = [hook.then(() => RESULT), cancelled];
    if (args.deadline === "per-call") racers.push(sleep(args.deadlineMs).then(() => TIMED_OUT));
    if (runDeadline) racers.push(runDeadline);
    const outcome = await Promise.race(racers);
    hook.dispose();
    if (outcome.kind !== "result") {
      cancelHook.dispose();
      return scratchFinish(writable, { runId, id, error: outcome.kind, live: args.live });
    }
    history.push(`${call}:${filler}`);
  }
  cancelHook.dispose();
  return scratchFinish(writable, { runId, id, live: args.live });
}
