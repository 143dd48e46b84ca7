import { naiveLoopWorkflow } from "@coauthor/agent-workflow/server";
import { start } from "workflow/api";
import { z } from "zod";
import { SSE_HEADERS } from "@/server/agent/sse-response";
import { benchDisabled } from "@/server/bench";
import { apiError } from "@/server/http/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const bodySchema = z.object({
  calls: z.number().int().min(0).max(1_000),
  deltas: z.number().int().min(0).max(20_000),
});

/** Benchmark reference: starts the naive Workflow DevKit loop and streams it as is. */
export async function POST(request: Request): Promise<Response> {
  const disabled = benchDisabled();
  if (disabled) return disabled;
  const parsed = bodySchema.safeParse(await request.json());
  if (!parsed.success) return apiError(400, "bad_request:bench", parsed.error.message);
  const run = await start(naiveLoopWorkflow, [parsed.data]);
  const body = run.getReadable<string>().pipeThrough(new TextEncoderStream());
  return new Response(body, { headers: { ...SSE_HEADERS, "x-run-id": run.runId } });
}
