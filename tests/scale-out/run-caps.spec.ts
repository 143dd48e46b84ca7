import type { CoauthorClient } from "../lib/coauthor-client.ts";
import { type Instances, oneUserOnEach, startInstances } from "../lib/instances.ts";
import { expect, test } from "../lib/test.ts";

// Run caps across instances: admissions on PostgreSQL are serialised per writer and per document
// by advisory locks in the database, so requests spread over two instances at the same instant
// cannot all see a free slot (security/run-caps.spec.ts holds the same on one PGlite instance).
// Two instances on the Postgres world, a database of their own.
let instances: Instances | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instances = await startInstances({
    label: "caps",
    postgresWorld: true,
    env: { MAX_CONCURRENT_RUNS_PER_USER: "2", MAX_CONCURRENT_RUNS_PER_DOCUMENT: "2" },
  });
});

test.afterAll(async () => {
  await instances?.dispose();
});

/** Starts a run that waits on its first tool call (nobody answers it). */
function startRun(client: CoauthorClient, documentId: string): Promise<Response> {
  return client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: "count to 5", mode: "agent" }),
  });
}

test("one writer starting runs on six documents over two instances at the same instant: exactly the writer's cap is accepted", async () => {
  const [onA, onB] = (await oneUserOnEach(instances?.servers ?? [])) as [CoauthorClient, CoauthorClient];
  const documents: string[] = [];
  for (let i = 0; i < 6; i++) documents.push(await onA.createDocument());

  const clients = documents.map((_, i) => (i % 2 === 0 ? onA : onB));
  const responses = await Promise.all(
    documents.map((documentId, i) => startRun(clients[i] ?? onA, documentId)),
  );

  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(2);
  expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  let running = 0;
  for (const documentId of documents) {
    const runs = await onA.trpc<{ status: string }[]>("assistant.runs", { documentId }, "query");
    running += runs.filter((run) => run.status === "running").length;
  }
  expect(running).toBe(2);

  // A new prompt on a document supersedes the writer's run there, on whichever instance it runs.
  const acceptedAt = statuses.indexOf(200);
  const superseding = await startRun(clients[acceptedAt + 1] ?? onB, documents[acceptedAt] ?? "");
  expect(superseding.status).toBe(200);
  const runs = await onA.trpc<{ status: string }[]>(
    "assistant.runs",
    { documentId: documents[acceptedAt] },
    "query",
  );
  expect(runs.map((run) => run.status).sort()).toEqual(["cancelled", "running"]);

  for (const [i, response] of [...responses, superseding].entries()) {
    const runId = response.headers.get("x-run-id");
    if (response.status === 200 && runId) await (clients[i] ?? onA).cancel(runId);
    await response.body?.cancel();
  }
});
