// Server-only entry for the app's observability: the metrics registry and the span processor its
// tracer provider needs (the spans themselves are started inside this package).
export { type CoauthorMetrics, metrics, observeGauge, scrapeMetrics } from "./metrics.ts";
export { RUN_ID_ATTRIBUTE, runIdSpanProcessor, SPAN } from "./tracing.ts";
