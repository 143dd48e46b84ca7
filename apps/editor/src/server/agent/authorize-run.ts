import { requireUser } from "@/server/agent/authorize";
import { findAccessibleDocument } from "@/server/documents";
import { apiError } from "@/server/http/errors";
import { findRun } from "@/server/runs";

/**
 * The session user's run (they started it and may still open its document), or the error response.
 * With `ownerMayAudit`, the document's owner may read any run on it too (its stored event log).
 */
export async function requireOwnRun(
  request: Request,
  runId: string,
  surface: string,
  options: { ownerMayAudit?: boolean } = {},
) {
  const user = await requireUser(request, surface);
  if (!user.ok) return user;
  const run = await findRun(runId);
  if (!run) return { ok: false as const, response: apiError(404, "not_found:run", "run not found") };
  const document = await findAccessibleDocument(user.userId, run.documentId);
  const audits = options.ownerMayAudit === true && document?.role === "owner";
  if (!document || (run.userId !== user.userId && !audits)) {
    return { ok: false as const, response: apiError(403, "forbidden:run", "this run is not yours") };
  }
  return { ok: true as const, userId: user.userId, run };
}
