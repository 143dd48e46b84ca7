// Tool results from the browser to the step that waits for them. The callback
// route records a result durably (first one wins), then wakes the waiting
// step of this process at once and signals the other instances (run-signals),
// whose waiting step reads it from the store; a step started after a restart
// finds it there too.

import { agentStore, memoryAgentStore } from "./agent-store.ts";
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

/**
 * Records a tool call's result in this process's own store and hands it to
 * its run: "delivered", or "duplicate" when a result was already recorded.
 * For runs without the app's database (tests, scripts); the app records
 * results with the token's claim and calls `wakeToolResult`.
 */
export async function deliverToolResult(
  runId: string,
  toolCallId: string,
  result: unknown,
): Promise<"delivered" | "duplicate"> {
  const memory = memoryAgentStore();
  if (agentStore() !== memory) throw new Error("deliverToolResult needs the process's own store");
  if (!(await memory.putToolResult(runId, toolCallId, result))) return "duplicate";
  wakeToolResult(runId, toolCallId, result);
  return "delivered";
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
