// Tool results from the browser to the step that waits for them. The callback
// route records a result durably (first one wins), then wakes the waiting
// step of this process at once and signals the other instances (run-signals),
// whose waiting step reads it from the store; a step started after a restart
// finds it there too.

import { createHash, randomUUID } from "node:crypto";
import { agentStore, type ClaimOutcome, type ToolResultClaim } from "./agent-store.ts";
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
 * this process that waits for it (no read back from the store); when none
 * here waits, signals the other instances that it is there. A step runs on
 * one instance at a time (its owner lease), so a call waited for here is
 * waited for nowhere else: the signal would only cost every instance a
 * notification (and, should a step elsewhere wait all the same, the store's
 * periodic read still finds the result).
 */
export function wakeToolResult(runId: string, toolCallId: string, result: unknown): void {
  const here = waiters().get(keyOf(runId, toolCallId));
  if (here && here.size > 0) {
    for (const wake of here) wake(result);
    return;
  }
  notifyToolResult(runId, toolCallId);
}

/** Hash of a tool result as recorded (a replay of the same result is told apart from another). */
export function resultHash(toolCallId: string, result: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([toolCallId, result]))
    .digest("hex");
}

/**
 * Records a tool call's result once, with its hook token's claim (the first
 * result for a token wins; the same one again is a replay; a run that no
 * longer takes results is refused by the store), then hands it to the waiting
 * step: at once in this process, by a signal on other instances. The callback
 * route and the unit tests both record through here.
 */
export async function recordToolResult(use: Omit<ToolResultClaim, "bodyHash">): Promise<ClaimOutcome> {
  const claim = await agentStore().claimToolResult({
    ...use,
    bodyHash: resultHash(use.toolCallId, use.result),
  });
  if (claim === "claimed") wakeToolResult(use.runId, use.toolCallId, use.result);
  return claim;
}

/**
 * Records a result as a browser would, without a token of its own (the unit
 * tests, on the memory store, which keeps no runs to check a writer against):
 * "delivered", or "duplicate" when the call has a result already.
 */
export async function deliverToolResult(
  runId: string,
  toolCallId: string,
  result: unknown,
): Promise<"delivered" | "duplicate"> {
  if (await agentStore().getToolResult(runId, toolCallId)) return "duplicate";
  const recorded = await recordToolResult({
    jti: randomUUID(),
    runId,
    userId: "test-writer",
    documentId: "test-document",
    toolCallId,
    result,
  });
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

  /**
   * Waits until `signal` aborts: Stop, the run's time limit, or the call's deadline (a
   * `TimeoutError`, as `AbortSignal.timeout` gives — answered as a timeout).
   */
  const wait = async (options: {
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
        if (options.signal.aborted)
          return isDeadline(options.signal.reason) ? { kind: "timeout" } : { kind: "aborted" };
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          next,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, options.pollMs ?? POLL_MS))),
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

/** Whether an abort reason is a deadline's (`AbortSignal.timeout`), not Stop or the run's time. */
const isDeadline = (reason: unknown) => reason instanceof DOMException && reason.name === "TimeoutError";

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
    const deadline = AbortSignal.timeout(Math.max(0, options.deadline - Date.now()));
    return await listener.wait({
      signal: AbortSignal.any([options.signal, deadline]),
      pollMs: options.pollMs,
    });
  } finally {
    listener.close();
  }
}
