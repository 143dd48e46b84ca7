import { recordToolResult, verifyHookToken } from "@coauthor/agent-workflow/server";
import { MAX_CALLBACK_BYTES, toolCallbackBodySchema } from "@coauthor/types";
import { toolNameSchema, toolSchemas } from "@coauthor/types/tools";
import { requireUser } from "@/server/agent/authorize";
import { roleAllows } from "@/server/auth/roles";
import { findRunWithRole } from "@/server/documents";
import { apiError, describeIssues, readJsonBody } from "@/server/http/errors";
import { protocolMismatch } from "@/server/http/protocol-version";
import { rateLimit } from "@/server/http/rate-limit";
import { signingKeys } from "@/server/secrets";

export const runtime = "nodejs";

/**
 * A tool result from the browser (spec §3.2). Every check runs before the
 * result is recorded for the run (those on the run with the record itself);
 * a replayed delivery answers 204 and changes nothing.
 */
export async function POST(request: Request): Promise<Response> {
  // A tab on older code may not run this tool the way this server's schemas expect.
  const outdated = protocolMismatch(request);
  if (outdated) return outdated;
  const user = await requireUser(request, "callback");
  if (!user.ok) return user.response;
  const limited = await rateLimit(user.userId, "callbacks");
  if (limited) return limited;
  const body = await readJsonBody(request, "callback", MAX_CALLBACK_BYTES);
  if (!body.ok) return body.response;
  const parsed = toolCallbackBodySchema.safeParse(body.value);
  if (!parsed.success) return apiError(400, "bad_request:callback", describeIssues(parsed.error.issues));
  const { hookToken, toolCallId, result } = parsed.data;

  const verified = await verifyHookToken(hookToken, signingKeys().hookToken);
  if (!verified.ok && verified.reason === "late")
    return apiError(410, "gone:tool_call_expired", `too late for this tool call: ${verified.message}`);
  if (!verified.ok) return apiError(401, "unauthorized:hook_token", `hook token ${verified.message}`);
  const claims = verified.claims;
  if (claims.userId !== user.userId)
    return apiError(403, "forbidden:hook_token", "token belongs to another user");
  if (claims.toolCallId !== toolCallId)
    return apiError(403, "forbidden:hook_token", "token is for another tool call");
  const toolName = toolNameSchema.safeParse(claims.toolName);
  if (!toolName.success) return apiError(400, "bad_request:callback", `unknown tool ${claims.toolName}`);
  const output = toolSchemas[toolName.data].output.safeParse(result);
  if (!output.success) {
    return apiError(
      400,
      "bad_request:callback",
      `result does not match ${toolName.data}: ${describeIssues(output.error.issues)}`,
    );
  }

  // Recorded once with the token's claim, in one statement with the run's checks (the token's
  // writer and document, still running, the writer may still edit it); a step waiting in this
  // process takes it at once, one on another instance is signalled. Only a refusal reads the run
  // again, to say why.
  const recorded = await recordToolResult({
    jti: claims.jti,
    runId: claims.runId,
    userId: claims.userId,
    documentId: claims.documentId,
    toolCallId,
    result: output.data,
  });
  if (recorded === "gone")
    return apiError(404, "not_found:run", "the run no longer exists (its document was deleted)");
  if (recorded === "conflict")
    return apiError(409, "conflict:hook_token", "this token was already used with another result");
  if (recorded === "refused") return await refusal(claims, user.userId);
  return new Response(null, { status: 204 });
}

/** Why a result was not recorded for the token's run: gone, not the token's, not editable, or ended. */
async function refusal(
  claims: { runId: string; userId: string; documentId: string },
  userId: string,
): Promise<Response> {
  const found = await findRunWithRole(claims.runId, userId);
  if (!found) return apiError(404, "not_found:run", "the run no longer exists (its document was deleted)");
  const { run, role } = found;
  if (run.userId !== claims.userId || run.documentId !== claims.documentId)
    return apiError(403, "forbidden:hook_token", "token does not match its run");
  if (!role || !roleAllows(role, "edit"))
    return apiError(403, "forbidden:document", "you may no longer edit this document");
  return apiError(409, "conflict:run", "the run is no longer waiting for this tool call");
}
