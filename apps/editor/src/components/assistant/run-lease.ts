import { type EditMode, runLeaseAnswerSchema } from "@coauthor/types";

// Which tab executes a run's tool calls. With the document open in several tabs (or devices) of
// the run's writer, each one following the run asks the server for the lease; exactly one holds
// it and renews it while it follows. The others only show the run, and take over (running the
// calls still unanswered) once the holder's lease lapses — it closed, crashed or went offline.

/** This page's id (sessionStorage-free: a reloaded page is a new tab and may take over at once). */
let tabId: string | null = null;
function currentTabId(): string {
  tabId ??= crypto.randomUUID();
  return tabId;
}

/** The writer's edit mode in this page now (the panel keeps it current; undefined before it has). */
let editModeNow: EditMode | undefined;

/**
 * Tells the lease which edit mode the writer has chosen: every ask sends it, so a server that
 * executes the run's calls while no tab holds the lease writes the way the writer last chose.
 */
export function reportEditMode(mode: EditMode): void {
  editModeNow = mode;
}

async function askLease(
  runId: string,
  release: boolean,
  keepalive = false,
): Promise<{ granted: boolean; ttlMs: number }> {
  const response = await fetch(`/api/llm/agent/${encodeURIComponent(runId)}/lease`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tabId: currentTabId(), release, editMode: editModeNow }),
    keepalive,
  });
  if (!response.ok) throw new Error(`lease: HTTP ${response.status}`);
  return runLeaseAnswerSchema.parse(await response.json());
}

/** This tab's standing on one run's lease. */
export interface RunLease {
  /** Whether this tab may execute the run's tool calls now (asks the server when it does not know yet). */
  held(): Promise<boolean>;
  /** Stops renewing and lets go of the lease. */
  release(): void;
}

/** Follows the lease of `runId` until released; `onAcquired` runs each time this tab becomes the holder. */
export function followRunLease(runId: string, onAcquired: () => void): RunLease {
  let holding = false;
  let asked: Promise<boolean> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let released = false;

  const ask = (): Promise<boolean> => {
    asked ??= askLease(runId, false)
      .then(({ granted, ttlMs }) => {
        const gained = granted && !holding;
        holding = granted;
        if (!released) timer = setTimeout(renew, ttlMs / 3);
        if (gained) onAcquired();
        return granted;
      })
      .catch((error: unknown) => {
        // Unreachable server: this tab cannot know it still holds the lease, so it stops executing.
        console.warn("[assistant] lease:", error);
        holding = false;
        if (!released) timer = setTimeout(renew, 1_000);
        return false;
      })
      .finally(() => {
        asked = null;
      });
    return asked;
  };
  const renew = () => {
    timer = null;
    if (!released) void ask();
  };
  const onPageHide = () => release();
  const release = () => {
    if (released) return;
    released = true;
    if (timer !== null) clearTimeout(timer);
    window.removeEventListener("pagehide", onPageHide);
    if (holding) {
      holding = false;
      // Keep-alive: the release must reach the server even when the page is going away.
      askLease(runId, true, true).catch((error: unknown) =>
        console.warn("[assistant] lease release:", error),
      );
    }
  };
  window.addEventListener("pagehide", onPageHide);
  return {
    held: () => (holding ? Promise.resolve(true) : (asked ?? ask())),
    release,
  };
}
