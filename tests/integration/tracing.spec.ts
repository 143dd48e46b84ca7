import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

/** A span as OTLP/HTTP JSON carries it (only what this test reads). */
interface ExportedSpan {
  name: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}
interface ExportRequest {
  resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
}

/** A collector on loopback that keeps every span posted to /v1/traces. */
async function startCollector(): Promise<{ server: Server; url: string; spans: ExportedSpan[] }> {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest;
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, spans };
}

const runIdOf = (span: ExportedSpan) =>
  span.attributes.find((attribute) => attribute.key === "coauthor.run_id")?.value.stringValue;

test("with OTEL_EXPORTER_OTLP_ENDPOINT set, a run's spans reach the collector, each with its run id", async () => {
  test.setTimeout(120_000);
  const collector = await startCollector();
  const app = new AppServer({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: "coauthor-test",
  });
  try {
    await app.start();
    const client = await new CoauthorClient(app.url).signIn();
    const documentId = await client.createDocument("First paragraph.");
    const run = await client.runAgent(documentId, 'append "Traced"');
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });

    // The batch processor sends every few seconds.
    const ofRun = () =>
      collector.spans.filter((span) => runIdOf(span) === run.runId).map((span) => span.name);
    await expect
      .poll(ofRun, { timeout: 20_000 })
      .toEqual(
        expect.arrayContaining([
          "coauthor.run.start",
          "coauthor.plan",
          "coauthor.model_call",
          "coauthor.tool_round_trip",
          expect.stringMatching(/^invoke_agent /),
        ]),
      );
    expect(ofRun().filter((name) => name === "coauthor.model_call")).toHaveLength(2);
  } finally {
    await app.dispose();
    await new Promise<void>((done) => collector.server.close(() => done()));
  }
});
