import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { startOtlpCollector } from "../lib/otlp-collector.ts";
import { expect, test } from "../lib/test.ts";

test("with OTEL_EXPORTER_OTLP_ENDPOINT set, a run's spans reach the collector, each with its run id", async () => {
  test.setTimeout(120_000);
  const collector = await startOtlpCollector();
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
    const ofRun = () => collector.spans.filter((span) => span.runId === run.runId).map((span) => span.name);
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
    await collector.close();
  }
});
