// Tool results from the browser to the step that waits for them. The callback
// route records a result durably (first one wins), then wakes the waiting
// step of this process at once and signals the other instances (run-signals),
// whose waiting step reads it from the store; a step started after a restart
// finds it there too.

import { createHash, randomUUID } from "node:crypto";
import { agentStore, type ClaimOutcome } from "./agent-store.ts";
import { notifyToolResult, onToolResult } from "./run-signals.ts";

const KEY = Symbol.for("coauthor.tool-result-waiters");
// Results arrive by wake-up and signal; the store is read as well in case a signal was lost.
const POLL_MS = 5_000;

type Waiters = Map<string, Set<(result: unknown) => void>>;

function waiters(): Waiters {
  const holder = globalThis as typeof globalThis & { [KEY]?: Waiters };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

const keyOf = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

/**
 * Hands a tool call's result, already recorded in the store, to the step of
 * this process that waits for it (no read back from the store), and signals
 * the other instances that it is there.
 */
export function wakeToolResult(runId: string, toolCallId: string, result: unknown): void {
  for (const wake of waiters().get(keyOf(runId, toolCallId)) ?? []) wake(result);
  notifyToolResult(runId, toolCallId);
}

/** Hash of a tool result as recorded (a replay of the same result is told apart from another). */
export function resultHash(toolCallId: string, result: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([toolCallId, result]))
    .digest("hex");
}

/** How recording a result went: handed to the run, or why not. */
export type RecordOutcome = ClaimOutcome | "not-waiting";

/**
 * Records a tool call's result once, with its hook token's claim (the first
 * result for a token wins; the same one again is a replay), then hands it to
 * the waiting step: at once in this process, by a signal on other instances.
 * `stillWaiting` is asked after the claim: a run that no longer waits gets its
 * claim released (a retry is judged afresh). The callback route and the unit
 * tests both record through here.
 */
export async function recordToolResult(
  use: { jti: string; runId: string; toolCallId: string; result: unknown },
  stillWaiting: () => Promise<boolean> = async () => true,
): Promise<RecordOutcome> {
  const store = agentStore();
  const claim = await store.claimToolResult({ ...use, bodyHash: resultHash(use.toolCallId, use.result) });
  if (claim !== "claimed") return claim;
  if (!(await stillWaiting())) {
    await store.releaseToolResult(use.jti);
    return "not-waiting";
  }
  wakeToolResult(use.runId, use.toolCallId, use.result);
  return "claimed";
}

/**
 * Records a result as a browser would, without a token of its own (tests and
 * scripts): "delivered", or "duplicate" when the call has a result already.
 */
export async function deliverToolResult(
  runId: string,
  toolCallId: string,
  result: unknown,
): Promise<"delivered" | "duplicate"> {
  if (await agentStore().getToolResult(runId, toolCallId)) return "duplicate";
  const recorded = await recordToolResult({ jti: randomUUID(), runId, toolCallId, result });
  return recorded === "claimed" ? "delivered" : "duplicate";
}

export type AwaitedToolResult =
  | { kind: "result"; result: unknown }
  | { kind: "timeout" }
  | { kind: "aborted" };

/**
 * Listens for a tool call's result from now on. Made before the call is
 * announced, its first wait may skip the store (`fresh`): nothing can have
 * answered a call nobody has seen yet.
 */
export function listenForToolResult(runId: string, toolCallId: string) {
  const store = agentStore();
  const key = keyOf(runId, toolCallId);
  let wake: () => void = () => undefined;
  let handed: { result: unknown } | undefined;
  let set = waiters().get(key);
  if (!set) {
    set = new Set();
    waiters().set(key, set);
  }
  const listener = (result: unknown) => {
    handed ??= { result: structuredClone(result) };
    wake();
  };
  set.add(listener);
  // Recorded on another instance: the next pass reads the store (even a `fresh` first one).
  let signalled = false;
  const unsubscribe = onToolResult(runId, toolCallId, () => {
    signalled = true;
    wake();
  });
  const close = () => {
    unsubscribe();
    set.delete(listener);
    if (set.size === 0) waiters().delete(key);
  };

  /** Waits until `deadline` (epoch ms) or until `signal` aborts (Stop, the run time limit). */
  const wait = async (options: {
    deadline: number;
    signal: AbortSignal;
    fresh?: boolean;
    /** How often the store is read while nothing woke this listener. */
    pollMs?: number;
  }): Promise<AwaitedToolResult> => {
    const onAbort = () => wake();
    options.signal.addEventListener("abort", onAbort);
    try {
      for (let first = true; ; first = false) {
        const next = new Promise<void>((resolve) => (wake = resolve));
        const found =
          handed ??
          (first && options.fresh && !signalled ? undefined : await store.getToolResult(runId, toolCallId)) ??
          handed;
        if (found) return { kind: "result", result: found.result };
        if (options.signal.aborted) return { kind: "aborted" };
        const left = options.deadline - Date.now();
        if (left <= 0) return { kind: "timeout" };
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          next,
          new Promise<void>(
            (resolve) => (timer = setTimeout(resolve, Math.min(left, options.pollMs ?? POLL_MS))),
          ),
        ]);
        clearTimeout(timer);
      }
    } finally {
      options.signal.removeEventListener("abort", onAbort);
    }
  };
  return { wait, close };
}

export type ToolResultListener = ReturnType<typeof listenForToolResult>;

/**
 * Waits for a tool call's result until `deadline` (epoch ms) or until
 * `signal` aborts (Stop, the run time limit), whichever comes first.
 */
export async function awaitToolResult(
  runId: string,
  toolCallId: string,
  options: { deadline: number; signal: AbortSignal; pollMs?: number },
): Promise<AwaitedToolResult> {
  const listener = listenForToolResult(runId, toolCallId);
  try {
    return await listener.wait(options);
  } finally {
    listener.close();
  }
}
