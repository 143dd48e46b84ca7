import { waitToRetry } from "./retry-wait";
import { findActiveRun, type ReattachableRun, type RunRequest } from "./run-client";

// How long a start whose answer was lost keeps looking for the run it may have started.
const LOST_START_BUDGET_MS = 30_000;

/**
 * The run a start may have started though its answer never came (the connection broke after the
 * server admitted it: an instance killed, the network gone): the writer's run going on this
 * document, if it is this prompt's. Asking again would start the request a second time while the
 * lost run goes on without a tab (the server runs its calls), and both would edit the document (the
 * fault runner's double markers under SIGKILL). Looks until LOST_START_BUDGET_MS has passed while
 * the server cannot answer (restarting, out of reach); null when no such run goes on.
 */
export async function findLostStart(
  request: RunRequest,
  signal: AbortSignal,
): Promise<ReattachableRun | null> {
  const until = Date.now() + LOST_START_BUDGET_MS;
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      const found = await findActiveRun(request.documentId, signal);
      return found?.prompt === request.prompt ? found : null;
    } catch (error) {
      if (signal.aborted || Date.now() > until) return null;
      console.warn("[assistant] a start's answer was lost; looking for the run it started", error);
    }
    await waitToRetry(attempt, signal);
  }
  return null;
}
