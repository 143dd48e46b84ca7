import { scrapeMetrics } from "@coauthor/agent-workflow/telemetry";
import { env } from "@/env";
import { apiError } from "@/server/http/errors";
import { metricsRefusal } from "@/server/observability/metrics-access";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Prometheus metrics (text format): runs by outcome, round-trip and first-delta histograms, sync server load. */
export async function GET(request: Request): Promise<Response> {
  const refusal = metricsRefusal(request.headers, env.METRICS_TOKEN);
  if (refusal) {
    const challenge: HeadersInit | undefined =
      refusal.status === 401 ? { "WWW-Authenticate": 'Bearer realm="metrics"' } : undefined;
    return apiError(refusal.status, refusal.code, refusal.message, challenge);
  }
  const { body, contentType } = await scrapeMetrics();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
