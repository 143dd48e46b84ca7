import { boundaryString } from "@coauthor/types";
import { requireUser } from "@/server/agent/authorize";
import { findRunWithRole } from "@/server/documents";
import { apiError } from "@/server/http/errors";

/** A run id as the engine makes them; anything else (NUL, a megabyte) names no run. */
export const runIdSchema = boundaryString(200);

/**
 * The session user's run (they started it and may still open its document), or the error response.
 * With `ownerMayAudit`, the document's owner may read any run on it too (its stored event log).
 * With `readsLog`, a run whose log the retention sweep removed answers 410. With `acceptToken` (the
 * read-only run routes), an access token names the user as a session does.
 */
export async function requireOwnRun(
  request: Request,
  runId: string,
  surface: string,
  options: { ownerMayAudit?: boolean; readsLog?: boolean; acceptToken?: boolean } = {},
) {
  const user = await requireUser(request, surface, { acceptToken: options.acceptToken });
  if (!user.ok) return user;
  if (!runIdSchema.safeParse(runId).success)
    return { ok: false as const, response: apiError(404, "not_found:run", "run not found") };
  const found = await findRunWithRole(runId, user.userId);
  if (!found) return { ok: false as const, response: apiError(404, "not_found:run", "run not found") };
  const audits = options.ownerMayAudit === true && found.role === "owner";
  if (!found.role || (found.run.userId !== user.userId && !audits)) {
    return { ok: false as const, response: apiError(403, "forbidden:run", "this run is not yours") };
  }
  const { run } = found;
  // The retention sweep removed its event log (RUN_LOG_RETENTION_DAYS); the summary stays in History.
  if (options.readsLog && run.logsPurgedAt)
    return { ok: false as const, response: apiError(410, `gone:${surface}`, "this run's log has expired") };
  return { ok: true as const, userId: user.userId, run };
}
