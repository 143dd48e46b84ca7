import { log } from "@coauthor/agent-workflow";
import type { RunStatusResponse } from "@coauthor/types";
import { requireUser } from "@/server/agent/authorize";
import { requireOwnRun, runIdSchema } from "@/server/agent/authorize-run";
import { cancelAgentRun } from "@/server/agent/run-control";
import { apiError } from "@/server/http/errors";
import { findRun } from "@/server/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Where one of the caller's runs stands: running, or how it ended (a session or an access token). */
export async function GET(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const { runId } = await context.params;
  const owned = await requireOwnRun(request, runId, "run", { acceptToken: true });
  if (!owned.ok) return owned.response;
  const { run } = owned;
  const body: RunStatusResponse = {
    runId: run.id,
    documentId: run.documentId,
    status: run.status,
    summary: run.summary,
  };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

/**
 * Stop: cancels the run on the server (204); the stream ends with `finish: cancelled`. A session
 * or an access token (the CLI's Ctrl+C).
 */
export async function DELETE(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const user = await requireUser(request, "cancel", { acceptToken: true });
  if (!user.ok) return user.response;
  const { runId } = await context.params;
  const run = runIdSchema.safeParse(runId).success ? await findRun(runId) : null;
  if (!run) return apiError(404, "not_found:run", "run not found");
  if (run.userId !== user.userId) return apiError(403, "forbidden:run", "this run is not yours");
  await cancelAgentRun(runId, "stopped by the writer");
  log.info("cancel requested", { runId });
  return new Response(null, { status: 204 });
}
