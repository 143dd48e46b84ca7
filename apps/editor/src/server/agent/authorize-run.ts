import { requireUser } from "@/server/agent/authorize";
import { findAccessibleDocument } from "@/server/documents";
import { apiError } from "@/server/http/errors";
import { findRun } from "@/server/runs";

/** The session user's run (they started it and may still open its document), or the error response. */
export async function requireOwnRun(request: Request, runId: string, surface: string) {
  const user = await requireUser(request, surface);
  if (!user.ok) return user;
  const run = await findRun(runId);
  if (!run) return { ok: false as const, response: apiError(404, "not_found:run", "run not found") };
  if (run.userId !== user.userId || !(await findAccessibleDocument(user.userId, run.documentId))) {
    return { ok: false as const, response: apiError(403, "forbidden:run", "this run is not yours") };
  }
  return { ok: true as const, userId: user.userId, run };
}
