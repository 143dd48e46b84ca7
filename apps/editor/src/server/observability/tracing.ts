import { OpenTelemetry } from "@ai-sdk/otel";
import { log } from "@coauthor/agent-workflow";
import { runIdSpanProcessor } from "@coauthor/agent-workflow/telemetry";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { registerTelemetry } from "ai";

const STARTED = Symbol.for("coauthor.tracing");

/**
 * Exports traces over OTLP/HTTP (to OTEL_EXPORTER_OTLP_ENDPOINT, which the exporter reads with the
 * other standard OTEL_EXPORTER_OTLP_* variables; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name
 * the service). Called at start only when the endpoint is set: otherwise nothing is registered and
 * every span in the code is the API's no-op. Also turns on the AI SDK's spans (its OpenTelemetry
 * integration) and the Workflow DevKit's, which use the same global provider.
 */
export function startTracing(): void {
  const holder = globalThis as typeof globalThis & { [STARTED]?: TracerProvider };
  if (holder[STARTED]) return;
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": "coauthor" }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    // The run id goes on first, so the exporter sees it on every span of a run's work.
    spanProcessors: [runIdSpanProcessor, new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry());
  holder[STARTED] = provider;
  // server.mjs exits half a second after a stop signal: send what is queued before that.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      provider.shutdown().catch((error: unknown) => {
        log.error("tracing: the last spans were not exported", { error });
      });
    });
  }
}
