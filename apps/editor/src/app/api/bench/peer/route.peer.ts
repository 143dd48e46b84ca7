import { start } from "workflow/api";
import { z } from "zod";
import { SSE_HEADERS } from "@/server/agent/sse-response";
import { benchDisabled } from "@/server/bench";
import { apiError } from "@/server/http/errors";
import { peerAgentWorkflow } from "@/workflows/bench-peer";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const bodySchema = z.object({ prompt: z.string().min(1).max(200) });

/**
 * Benchmark reference: starts the AI SDK's `WorkflowAgent` (the peer) on the offline model and
 * streams its parts as SSE `data:` lines, one JSON part each, as they are written.
 */
export async function POST(request: Request): Promise<Response> {
  const disabled = benchDisabled();
  if (disabled) return disabled;
  const parsed = bodySchema.safeParse(await request.json());
  if (!parsed.success) return apiError(400, "bad_request:bench", parsed.error.message);
  const run = await start(peerAgentWorkflow, [parsed.data]);
  const frames = new TransformStream<unknown, string>({
    transform(part, controller) {
      controller.enqueue(`data: ${JSON.stringify(part)}\n\n`);
    },
  });
  const body = run.getReadable().pipeThrough(frames).pipeThrough(new TextEncoderStream());
  return new Response(body, { headers: { ...SSE_HEADERS, "x-run-id": run.runId } });
}
