import { defaultModelId, isAllowedModel } from "@coauthor/agent-workflow/server";
import type { z } from "zod";
import { requireDocument, requireUser } from "@/server/agent/authorize";
import { apiError, describeIssues, readJsonBody } from "@/server/http/errors";
import { rateLimit } from "@/server/http/rate-limit";

const MAX_BODY_BYTES = 1024 * 1024;

type RunRequestSchema = z.ZodType<{ documentId: string; model?: string | undefined }>;

/**
 * The shared front door of the agent and chat routes: session (or, for agent runs, an access
 * token: the same rights, limits and caps follow from its user), rate limit,
 * size-limited body, schema, document access and model — or the typed error
 * response. (An agent run's caps are checked when it is admitted: run-admission.)
 */
export async function acceptRunRequest<S extends RunRequestSchema>(
  request: Request,
  schema: S,
  surface: "agent" | "chat",
) {
  const user = await requireUser(request, surface, { acceptToken: surface === "agent" });
  if (!user.ok) return user;
  const limited = await rateLimit(user.userId, surface === "agent" ? "runs" : "chat");
  if (limited) return { ok: false as const, response: limited };
  const body = await readJsonBody(request, surface, MAX_BODY_BYTES);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    return {
      ok: false as const,
      response: apiError(400, `bad_request:${surface}`, describeIssues(parsed.error.issues)),
    };
  }
  const input: z.infer<S> = parsed.data;
  // Chat only reads the document (viewers may ask); an agent run edits it.
  const access = await requireDocument(user.userId, input.documentId, surface === "chat" ? "read" : "edit");
  if (!access.ok) return access;
  const modelId = input.model ?? defaultModelId();
  if (!isAllowedModel(modelId)) {
    return {
      ok: false as const,
      response: apiError(400, "bad_request:model", `model "${modelId}" is not available`),
    };
  }
  return {
    ok: true as const,
    userId: user.userId,
    caller: user.caller,
    input,
    modelId,
    access: access.access,
  };
}
