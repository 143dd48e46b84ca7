import { CoauthorClient, sharedDocument } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// The test server runs with RATE_LIMIT_CHAT_PER_MINUTE=5 and MAX_CONCURRENT_RUNS_PER_USER=2.
test("chat is rate limited per user with 429 and Retry-After; other users are not affected", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const other = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("Text.");
  const otherDocument = await other.createDocument("Text.");
  const ask = (who: CoauthorClient, id: string) =>
    who.fetch("/api/llm/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId: id, prompt: "words?", mode: "chat" }),
    });
  const statuses: number[] = [];
  let limited: Response | undefined;
  for (let i = 0; i < 6; i++) {
    const response = await ask(client, documentId);
    statuses.push(response.status);
    if (response.status === 429) limited = response;
    else await response.text();
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await limited?.json()).toMatchObject({ code: "rate_limited:chat" });
  const fine = await ask(other, otherDocument);
  expect(fine.status).toBe(200);
  await fine.text();
});

test("a user cannot have more runs going at once than allowed", async ({ baseURL }) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documents = [
    await client.createDocument(),
    await client.createDocument(),
    await client.createDocument(),
  ];
  const start = (documentId: string) =>
    client.fetch("/api/llm/agent", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId, prompt: "count to 5", mode: "agent" }),
    });
  // Two runs wait on their first tool call (nobody answers).
  const first = await start(documents[0] ?? "");
  const second = await start(documents[1] ?? "");
  expect([first.status, second.status]).toEqual([200, 200]);
  const third = await start(documents[2] ?? "");
  expect(third.status).toBe(429);
  expect(await third.json()).toMatchObject({ code: "rate_limited:concurrent_runs" });
  expect(third.headers.get("retry-after")).toBeTruthy();
  // Stopping one frees a slot.
  const runId = first.headers.get("x-run-id") ?? "";
  expect((await client.cancel(runId)).status).toBe(204);
  const fourth = await start(documents[2] ?? "");
  expect(fourth.status).toBe(200);
  for (const response of [second, fourth]) await client.cancel(response.headers.get("x-run-id") ?? "");
  await Promise.all([first, second, fourth].map((r) => r.body?.cancel()));
});

test("Continue picks up only the writer's own run that stopped early, on the same document", async ({
  baseURL,
}) => {
  const { owner, member, documentId } = await sharedDocument(baseURL ?? "", "editor");
  const finished = await owner.runAgent(documentId, 'append "One."');
  expect(finished.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  const continueWith = (who: CoauthorClient, continueRunId: string, onDocument = documentId) =>
    who.fetch("/api/llm/agent", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId: onDocument, prompt: "Continue.", continueRunId }),
    });
  const historyLength = async () =>
    (await owner.trpc<unknown[]>("assistant.runs", { documentId }, "query")).length;
  const before = await historyLength();

  // A run that finished its work has nothing to continue.
  const done = await continueWith(owner, finished.runId);
  expect(done.status).toBe(409);
  expect(await done.json()).toMatchObject({ code: "conflict:continue" });
  // Another writer's run, or a run that does not exist, is unknown to the caller.
  const others = await continueWith(member, finished.runId);
  expect(others.status).toBe(404);
  expect(await others.json()).toMatchObject({ code: "not_found:run" });
  expect((await continueWith(owner, "wrun_nope")).status).toBe(404);
  // The same run named from another of the writer's documents.
  const elsewhere = await owner.createDocument();
  expect((await continueWith(owner, finished.runId, elsewhere)).status).toBe(404);
  // Hostile ids are refused by the schema.
  const hostile = await continueWith(owner, "a\u0000b");
  expect(hostile.status).toBe(400);
  expect(await hostile.text()).toMatch(/continueRunId/);
  // None of these started a run.
  expect(await historyLength()).toBe(before);
});
