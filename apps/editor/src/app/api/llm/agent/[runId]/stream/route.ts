import { getRun } from "workflow/api";
import { requireOwnRun } from "@/server/agent/authorize-run";
import { runEventResponse } from "@/server/agent/sse-response";
import { apiError } from "@/server/http/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Reattach: replays a run's events from `Last-Event-ID` + 1 (or `?from=N`)
 * and follows live until its last frame. Reattaching never re-runs anything:
 * tool calls already answered have their results recorded in the run.
 */
export async function GET(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const { runId } = await context.params;
  const owned = await requireOwnRun(request, runId, "stream");
  if (!owned.ok) return owned.response;
  const lastEventId = request.headers.get("last-event-id");
  const from = new URL(request.url).searchParams.get("from");
  const fromId = lastEventId !== null ? Number(lastEventId) + 1 : Number(from ?? 0);
  if (!Number.isInteger(fromId) || fromId < 0) {
    return apiError(400, "bad_request:stream", "Last-Event-ID / from must be a non-negative integer");
  }
  return runEventResponse(runId, getRun(runId).getReadable<string>({ startIndex: 0 }), {
    signal: request.signal,
    fromId,
  });
}
