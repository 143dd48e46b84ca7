import { getRun } from "workflow/api";
import { requireOwnRun } from "@/server/agent/authorize-run";
import { superviseRun } from "@/server/agent/run-control";
import { runEventResponse } from "@/server/agent/sse-response";
import { parseEventOffset } from "@/server/http/event-offset";
import { protocolMismatch } from "@/server/http/protocol-version";

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
  const outdated = protocolMismatch(request);
  if (outdated) return outdated;
  const { runId } = await context.params;
  const owned = await requireOwnRun(request, runId, "stream", { readsLog: true, acceptToken: true });
  if (!owned.ok) return owned.response;
  const lastEventId = request.headers.get("last-event-id");
  const raw =
    lastEventId !== null ? String(Number(lastEventId) + 1) : new URL(request.url).searchParams.get("from");
  const parsed = parseEventOffset(raw, "stream");
  if (!parsed.ok) return parsed.response;
  // After a restart nobody may be recording this run's end yet.
  if (owned.run.status === "running") superviseRun(runId);
  return runEventResponse(runId, getRun(runId).getReadable<string>({ startIndex: 0 }), {
    signal: request.signal,
    fromId: parsed.value,
  });
}
