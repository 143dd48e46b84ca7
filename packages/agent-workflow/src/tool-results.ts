// Tool results from the browser to the step that waits for them. The callback
// route records a result durably (first one wins), then wakes the waiting
// step of this process at once; a step on another instance, or one started
// after a restart, finds it in the store (polled while waiting).

import { agentStore } from "./agent-store.ts";

const KEY = Symbol.for("coauthor.tool-result-waiters");
const POLL_MS = 250;

type Waiters = Map<string, Set<() => void>>;

function waiters(): Waiters {
  const holder = globalThis as typeof globalThis & { [KEY]?: Waiters };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

const keyOf = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

/**
 * Hands a tool call's result to its run: "delivered", or "duplicate" when a
 * result was already recorded (the caller has checked that the run is live).
 */
export async function deliverToolResult(
  runId: string,
  toolCallId: string,
  result: unknown,
): Promise<"delivered" | "duplicate"> {
  if (!(await agentStore().putToolResult(runId, toolCallId, result))) return "duplicate";
  for (const wake of waiters().get(keyOf(runId, toolCallId)) ?? []) wake();
  return "delivered";
}

export type AwaitedToolResult =
  | { kind: "result"; result: unknown }
  | { kind: "timeout" }
  | { kind: "aborted" };

/**
 * Waits for a tool call's result until `deadline` (epoch ms) or until
 * `signal` aborts (Stop, the run time limit), whichever comes first.
 */
export async function awaitToolResult(
  runId: string,
  toolCallId: string,
  options: { deadline: number; signal: AbortSignal },
): Promise<AwaitedToolResult> {
  const store = agentStore();
  const key = keyOf(runId, toolCallId);
  let wake: () => void = () => undefined;
  const woken = () => new Promise<void>((resolve) => (wake = resolve));
  let set = waiters().get(key);
  if (!set) {
    set = new Set();
    waiters().set(key, set);
  }
  const listener = () => wake();
  set.add(listener);
  const onAbort = () => wake();
  options.signal.addEventListener("abort", onAbort);
  try {
    for (;;) {
      const next = woken();
      const stored = await store.getToolResult(runId, toolCallId);
      if (stored) return { kind: "result", result: stored.result };
      if (options.signal.aborted) return { kind: "aborted" };
      const left = options.deadline - Date.now();
      if (left <= 0) return { kind: "timeout" };
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        next,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, POLL_MS)))),
      ]);
      clearTimeout(timer);
    }
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    set.delete(listener);
    if (set.size === 0) waiters().delete(key);
  }
}
