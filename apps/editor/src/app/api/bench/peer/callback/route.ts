import { peerHookToken } from "@coauthor/agent-workflow/server";
import { resumeHook } from "workflow/api";
import { z } from "zod";
import { benchDisabled } from "@/server/bench";
import { apiError } from "@/server/http/errors";

export const runtime = "nodejs";

const bodySchema = z.object({
  runId: z.string().min(1),
  toolCallId: z.string().min(1),
  result: z.record(z.string(), z.unknown()),
});

/** Benchmark reference: a browser-side tool's result resumes the peer's hook, as its docs show. */
export async function POST(request: Request): Promise<Response> {
  const disabled = benchDisabled();
  if (disabled) return disabled;
  const parsed = bodySchema.safeParse(await request.json());
  if (!parsed.success) return apiError(400, "bad_request:bench", parsed.error.message);
  const { runId, toolCallId, result } = parsed.data;
  await resumeHook(peerHookToken(runId, toolCallId), { result });
  return new Response(null, { status: 204 });
}
