// The pauses between a client's attempts to reach the server again (a restart, a network blip).
const RETRY_MS = [250, 500, 1_000, 2_000] as const;

/** Waits before retry `attempt` (0 first): a short backoff up to 2 s; ends early when `signal` aborts. */
export function waitToRetry(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 2_000;
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
