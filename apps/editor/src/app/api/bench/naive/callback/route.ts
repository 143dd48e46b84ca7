import { naiveHookToken } from "@coauthor/agent-workflow/server";
import { resumeHook } from "workflow/api";
import { z } from "zod";
import { benchDisabled } from "@/server/bench";
import { apiError } from "@/server/http/errors";

export const runtime = "nodejs";

const bodySchema = z.object({ runId: z.string(), call: z.number().int().min(1) });

/** Benchmark reference: resumes the naive loop's hook directly (no checks: not a product route). */
export async function POST(request: Request): Promise<Response> {
  const disabled = benchDisabled();
  if (disabled) return disabled;
  const parsed = bodySchema.safeParse(await request.json());
  if (!parsed.success) return apiError(400, "bad_request:bench", parsed.error.message);
  await resumeHook(naiveHookToken(parsed.data.runId, parsed.data.call), { ok: true });
  return new Response(null, { status: 204 });
}
