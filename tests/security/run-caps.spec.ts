import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";
import { workflowRunCount } from "./server-state.ts";

// Run caps hold under a burst: admissions are serialised (on PGlite, in the process that owns the
// database; on PostgreSQL by advisory locks per writer and per document, scale-out/run-caps.spec.ts),
// so parallel requests cannot all see a free slot. The test server runs
// with MAX_CONCURRENT_RUNS_PER_USER=2 and the default MAX_CONCURRENT_RUNS_PER_DOCUMENT=2.

interface RunRow {
  id: string;
  status: string;
}

/** Starts an agent run (`count to 5`: it waits on its first tool call, which nobody answers). */
function startRun(client: CoauthorClient, documentId: string): Promise<Response> {
  return client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documentId, prompt: "count to 5", mode: "agent" }),
  });
}

/** Stops the accepted runs and drops every answer's body. */
async function cleanUp(client: CoauthorClient, responses: Response[]): Promise<void> {
  for (const response of responses) {
    const runId = response.headers.get("x-run-id");
    if (response.status === 200 && runId) expect((await client.cancel(runId)).status).toBe(204);
    if (!response.bodyUsed) await response.body?.cancel();
  }
}

test("six co-editors starting runs on one document at the same instant: exactly the document cap is accepted", async ({
  baseURL,
}) => {
  const owner = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await owner.createDocument("Shared.");
  const editors = [owner];
  for (let i = 0; i < 5; i++) {
    const editor = await new CoauthorClient(baseURL ?? "").signIn();
    await owner.trpc("documents.share", { id: documentId, email: editor.email, role: "editor" });
    editors.push(editor);
  }
  const workflowsBefore = workflowRunCount();

  const responses = await Promise.all(editors.map((editor) => startRun(editor, documentId)));

  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(2);
  expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  for (const refused of responses.filter((response) => response.status === 429)) {
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(await refused.json()).toEqual({
      code: "rate_limited:document_runs",
      message: "this document has 2 runs going, the most allowed; wait for one to end",
    });
  }
  // Nothing else was stored or started: two runs in History, two workflows in the engine.
  const runs = await owner.trpc<RunRow[]>("assistant.runs", { documentId }, "query");
  expect(runs.map((run) => run.status)).toEqual(["running", "running"]);
  expect(workflowRunCount() - workflowsBefore).toBe(2);
  for (const [index, response] of responses.entries()) await cleanUp(editors[index] ?? owner, [response]);
});

test("one writer starting runs on six documents at the same instant: exactly the writer's cap is accepted", async ({
  baseURL,
}) => {
  const writer = await new CoauthorClient(baseURL ?? "").signIn();
  const documents: string[] = [];
  for (let i = 0; i < 6; i++) documents.push(await writer.createDocument());
  const workflowsBefore = workflowRunCount();

  const responses = await Promise.all(documents.map((documentId) => startRun(writer, documentId)));

  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(2);
  expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  for (const refused of responses.filter((response) => response.status === 429)) {
    expect(await refused.json()).toMatchObject({ code: "rate_limited:concurrent_runs" });
  }
  expect(workflowRunCount() - workflowsBefore).toBe(2);
  await cleanUp(writer, responses);
});

test("a writer's own prompts on one document never refuse each other: each one supersedes the run before", async ({
  baseURL,
}) => {
  const writer = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await writer.createDocument();

  const responses = await Promise.all([0, 1, 2, 3, 4, 5].map(() => startRun(writer, documentId)));

  expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
  // One run is left going; the five it and its predecessors superseded are cancelled.
  const runs = await writer.trpc<RunRow[]>("assistant.runs", { documentId }, "query");
  expect(runs.map((run) => run.status).sort()).toEqual([
    "cancelled",
    "cancelled",
    "cancelled",
    "cancelled",
    "cancelled",
    "running",
  ]);
  await cleanUp(writer, responses);
});
