import { resumeHook } from "workflow/api";
import { HookNotFoundError } from "workflow/internal/errors";
import { z } from "zod";
import { benchDisabled } from "@/server/bench";
import { apiError } from "@/server/http/errors";
import { peerHookToken } from "@/workflows/bench-peer/hook-token-name";

export const runtime = "nodejs";

const bodySchema = z.object({
  runId: z.string().min(1),
  toolCallId: z.string().min(1),
  result: z.record(z.string(), z.unknown()),
});

/**
 * Benchmark reference: a browser-side tool's result resumes the peer's hook, as its docs show.
 * The `tool-call` part reaches the browser before the workflow has run the tool's `execute` and
 * created the hook: until then the answer is 404 and the browser posts again (the docs' route
 * answers "Hook not found" the same way).
 */
export async function POST(request: Request): Promise<Response> {
  const disabled = benchDisabled();
  if (disabled) return disabled;
  const parsed = bodySchema.safeParse(await request.json());
  if (!parsed.success) return apiError(400, "bad_request:bench", parsed.error.message);
  const { runId, toolCallId, result } = parsed.data;
  try {
    await resumeHook(peerHookToken(runId, toolCallId), { result });
  } catch (error) {
    if (HookNotFoundError.is(error)) return apiError(404, "not_found:bench", "hook not created yet");
    throw error;
  }
  return new Response(null, { status: 204 });
}
