import { type RunLeaseAnswer, runLeaseRequestSchema } from "@coauthor/types";
import { requireOwnRun } from "@/server/agent/authorize-run";
import { claimRunLease, RUN_LEASE_TTL_MS, releaseRunLease } from "@/server/agent/run-lease";
import { apiError, describeIssues, readJsonBody } from "@/server/http/errors";
import { setRunEditMode } from "@/server/runs";

export const runtime = "nodejs";

const MAX_BODY_BYTES = 1_024;

/**
 * The lease to execute a run's tool calls: one tab of the run's writer holds it at a time (the
 * others follow the run and take over when it lapses). `{ granted }`; `release: true` lets go.
 */
export async function POST(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const { runId } = await context.params;
  // The run's writer, while they may still open its document.
  const owned = await requireOwnRun(request, runId, "lease");
  if (!owned.ok) return owned.response;
  const body = await readJsonBody(request, "lease", MAX_BODY_BYTES);
  if (!body.ok) return body.response;
  const input = runLeaseRequestSchema.safeParse(body.value);
  if (!input.success) return apiError(400, "bad_request:lease", describeIssues(input.error.issues));
  if (input.data.release) {
    await releaseRunLease(runId, input.data.tabId);
    return Response.json({ granted: false, ttlMs: RUN_LEASE_TTL_MS } satisfies RunLeaseAnswer);
  }
  // A run in the background is the server's to execute: a tab only follows it.
  const granted =
    owned.run.status === "running" &&
    owned.run.executor === "tab" &&
    (await claimRunLease(runId, input.data.tabId));
  // The tab that executes the run says which mode its writes land in; the server executor follows it.
  const editMode = input.data.editMode;
  if (granted && editMode !== undefined && editMode !== owned.run.editMode)
    await setRunEditMode(runId, editMode);
  return Response.json({ granted, ttlMs: RUN_LEASE_TTL_MS } satisfies RunLeaseAnswer);
}
