// Tool results from the browser to the step that waits for them. The callback
// route records a result durably (first one wins), then wakes the waiting
// step of this process at once and signals the other instances (run-signals),
// whose waiting step reads it from the store; a step started after a restart
// finds it there too.
//
// A step waiting here for the last tool call of its turn goes straight on to
// the next model turn, whose frames may go out only once the run's progress is
// marked as in its model phase (turns-loop.ts). The claim writes that mark in
// the same statement (`markModelPhase`), so a round trip costs one database
// write less; the step is told so (`modelPhaseMarked`) and skips its own.

import { createHash, randomUUID } from "node:crypto";
import { agentStore, type ClaimOutcome, type ToolResultClaim } from "./agent-store.ts";
import { notifyToolResult, onToolResult } from "./run-signals.ts";

const KEY = Symbol.for("coauthor.tool-result-waiters");
// Results arrive by wake-up and signal; the store is read as well in case a signal was lost.
const POLL_MS = 5_000;

/** A step of this process waiting for a result, and whether a model turn is what it does next. */
interface Waiter {
  wake: (result: unknown, modelPhaseMarked: boolean) => void;
  modelTurnNext: boolean;
}

type Waiters = Map<string, Set<Waiter>>;

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
export function wakeToolResult(
  runId: string,
  toolCallId: string,
  result: unknown,
  modelPhaseMarked = false,
): void {
  const here = waiters().get(keyOf(runId, toolCallId));
  if (here && here.size > 0) {
    for (const waiter of here) waiter.wake(result, modelPhaseMarked);
    return;
  }
  notifyToolResult(runId, toolCallId);
}

/** Whether a step of this process waits for this call's result and goes on to a model turn with it. */
function modelTurnWaitsHere(runId: string, toolCallId: string): boolean {
  for (const waiter of waiters().get(keyOf(runId, toolCallId)) ?? []) if (waiter.modelTurnNext) return true;
  return false;
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
export async function recordToolResult(
  use: Omit<ToolResultClaim, "bodyHash" | "markModelPhase">,
): Promise<ClaimOutcome> {
  const markModelPhase = modelTurnWaitsHere(use.runId, use.toolCallId);
  const claim = await agentStore().claimToolResult({
    ...use,
    bodyHash: resultHash(use.toolCallId, use.result),
    markModelPhase,
  });
  if (claim === "claimed") wakeToolResult(use.runId, use.toolCallId, use.result, markModelPhase);
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
  /** `modelPhaseMarked`: the claim that recorded it also marked the model phase (see above). */
  { kind: "result"; result: unknown; modelPhaseMarked?: true } | { kind: "timeout" } | { kind: "aborted" };

/**
 * Listens for a tool call's result from now on. Made before the call is
 * announced, its first wait may skip the store (`fresh`): nothing can have
 * answered a call nobody has seen yet. `modelTurnNext`: the call is the last
 * of its turn, so a model turn follows its result (a claim in this process
 * then marks the model phase for the step).
 */
export function listenForToolResult(
  runId: string,
  toolCallId: string,
  options: { modelTurnNext?: boolean } = {},
) {
  const store = agentStore();
  const key = keyOf(runId, toolCallId);
  let wake: () => void = () => undefined;
  let handed: { result: unknown; modelPhaseMarked?: true } | undefined;
  let set = waiters().get(key);
  if (!set) {
    set = new Set();
    waiters().set(key, set);
  }
  const listener: Waiter = {
    modelTurnNext: options.modelTurnNext ?? false,
    wake: (result, modelPhaseMarked) => {
      handed ??= { result: structuredClone(result), ...(modelPhaseMarked ? { modelPhaseMarked: true } : {}) };
      wake();
    },
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
        if (found) return { kind: "result", ...found };
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
