// An OpenTelemetry collector on loopback for tests and bench tools: it keeps every span a server
// exports over OTLP/HTTP JSON (`OTEL_EXPORTER_OTLP_ENDPOINT` = its url,
// `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

// The part of an export request the collector keeps.
const exportSchema = z.object({
  resourceSpans: z.array(
    z.object({
      scopeSpans: z.array(
        z.object({
          spans: z.array(
            z.object({
              name: z.string(),
              startTimeUnixNano: z.string(),
              endTimeUnixNano: z.string(),
              attributes: z
                .array(z.object({ key: z.string(), value: z.object({ stringValue: z.string() }).partial() }))
                .default([]),
            }),
          ),
        }),
      ),
    }),
  ),
});

/** A span as the collector keeps it: times in epoch milliseconds. */
export interface CollectedSpan {
  name: string;
  start: number;
  end: number;
  /** The span's `coauthor.run_id` attribute (the app's spans of a run carry it). */
  runId?: string;
}

const epochMs = (nanos: string) => Number(BigInt(nanos) / 1000n) / 1000;

/** Starts a collector; `close()` stops it. An export it cannot read fails loudly in its log. */
export async function startOtlpCollector() {
  const spans: CollectedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        const parsed = exportSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        if (!parsed.success)
          console.error(`otlp collector: an export it cannot read: ${parsed.error.message}`);
        for (const { scopeSpans } of parsed.data?.resourceSpans ?? [])
          for (const { spans: exported } of scopeSpans)
            for (const span of exported)
              spans.push({
                name: span.name,
                start: epochMs(span.startTimeUnixNano),
                end: epochMs(span.endTimeUnixNano),
                runId: span.attributes.find((a) => a.key === "coauthor.run_id")?.value.stringValue,
              });
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
