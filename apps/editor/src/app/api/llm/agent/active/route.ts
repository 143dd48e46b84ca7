import { boundaryString } from "@coauthor/types";
import { z } from "zod";
import type { ActiveRunResponse } from "@/components/assistant/run-client";
import { requireDocument, requireUser } from "@/server/agent/authorize";
import { recordRunEnd, superviseRun } from "@/server/agent/run-control";
import { apiError, describeIssues } from "@/server/http/errors";
import { answeredToolCallIds, findRunningRun } from "@/server/runs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ documentId: boundaryString(100).pipe(z.string().min(1)) });

/**
 * The caller's agent run still going on a document (`{ run: null }` when none), so a reloaded
 * page can reattach to it: its id, its prompt, and the tool calls already answered (never to be
 * run again). A run the engine has already ended is recorded as ended here.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await requireUser(request, "active_run");
  if (!user.ok) return user.response;
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiError(400, "bad_request:active_run", describeIssues(query.error.issues));
  const access = await requireDocument(user.userId, query.data.documentId, "edit");
  if (!access.ok) return access.response;

  const row = await findRunningRun(user.userId, query.data.documentId);
  let body: ActiveRunResponse = { run: null };
  if (row) {
    if (!(await recordRunEnd(row.id))) {
      superviseRun(row.id);
      body = {
        run: { runId: row.id, prompt: row.prompt, answeredToolCallIds: await answeredToolCallIds(row.id) },
      };
    }
  }
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}
