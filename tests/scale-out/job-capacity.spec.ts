import type { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { type Instances, startInstances } from "../lib/instances.ts";
import { RunStream } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// On the Postgres world a run's turns step holds one of its instance's job slots while it waits on
// the browser; a run started when every slot is taken would wait, silent, for one. Admission
// refuses it instead (503 and Retry-After), and admits again once a slot is free. One instance with
// two slots, a database of its own.
let instances: Instances | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instances = await startInstances({
    label: "capacity",
    postgresWorld: true,
    count: 1,
    env: { WORKFLOW_POSTGRES_WORKER_CONCURRENCY: "2" },
  });
});

test.afterAll(async () => {
  await instances?.dispose();
});

/** Starts a run and reads until its first tool call: its turns step now holds a slot. */
async function runWaitingOnTool(client: CoauthorClient, documentId: string): Promise<RunStream> {
  const stream = await RunStream.start(client, documentId, "count to 3");
  expect(stream.status).toBe(200);
  const read = await stream.readUntil((event) => event.type === "tool-call");
  expect(read.at(-1)?.type).toBe("tool-call");
  return stream;
}

test("a run with no job slot left is refused with 503 and stores nothing; with a slot free again it runs", async () => {
  const server = instances?.servers[0] as AppServer;
  const client = await new CoauthorClient(server.url).signIn();
  const [first, second, third] = [
    await client.createDocument("One."),
    await client.createDocument("Two."),
    await client.createDocument("Three."),
  ];
  const holding = [await runWaitingOnTool(client, first), await runWaitingOnTool(client, second)];

  const refused = await client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId: third, prompt: "count to 3", mode: "agent" }),
  });
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("30");
  expect(await refused.json()).toMatchObject({ code: "unavailable:capacity" });
  expect(await client.trpc<unknown[]>("assistant.runs", { documentId: third }, "query")).toEqual([]);

  // Stopping one frees its slot (its step ends); the next run is admitted and gets its tool call.
  expect((await client.cancel(holding[0]?.runId ?? "")).status).toBe(204);
  await expect
    .poll(
      async () => {
        const response = await client.fetch("/api/llm/agent", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ documentId: third, prompt: "count to 3", mode: "agent" }),
        });
        const runId = response.headers.get("x-run-id");
        if (response.status === 200 && runId) {
          const stream = new RunStream(response, runId, new AbortController());
          const read = await stream.readUntil((event) => event.type === "tool-call");
          holding.push(stream);
          return read.at(-1)?.type;
        }
        await response.arrayBuffer();
        return response.status;
      },
      { timeout: 15_000 },
    )
    .toBe("tool-call");
  for (const stream of holding) stream.drop();
});

test("a burst of starts by twelve writers while every slot is taken is answered at once, each with 503", async () => {
  // The slots are still taken by the runs above (their streams dropped, they wait on their tools).
  const server = instances?.servers[0] as AppServer;
  const writers = await Promise.all(
    Array.from({ length: 12 }, () => new CoauthorClient(server.url).signIn()),
  );
  const documents = await Promise.all(writers.map((writer) => writer.createDocument("Busy.")));
  const refusals = async () => {
    const metrics = await (await fetch(`${server.url}/api/metrics`)).text();
    return Number(/^coauthor_agent_runs_refused_total\{reason="capacity"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  };
  const refusedBefore = await refusals();
  // More admissions at once than the database pool has connections: none may wait on another.
  const statuses = await Promise.all(
    writers.map(async (writer, index) => {
      const response = await writer.fetch("/api/llm/agent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ documentId: documents[index], prompt: "count to 3", mode: "agent" }),
      });
      await response.arrayBuffer();
      return response.status;
    }),
  );
  expect(statuses).toEqual(writers.map(() => 503));
  // Operators see it: each refusal is counted under its reason.
  expect(await refusals()).toBe(refusedBefore + 12);
});
