import { type FakeOpenAIServer, startFakeOpenAIServer } from "@coauthor/agent-workflow/testing";
import { AppServer } from "../lib/app-server.ts";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { idsOf, range } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

let model: FakeOpenAIServer;
let server: AppServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  model = await startFakeOpenAIServer();
  // The real OpenAI-compatible provider, pointed at a model server that dies mid-answer.
  server = new AppServer({
    OPENAI_COMPATIBLE_BASE_URL: `${model.url}/v1`,
    OPENAI_COMPATIBLE_MODEL: "fake",
    OPENAI_COMPATIBLE_API_KEY: "test-key",
    COAUTHOR_DEFAULT_MODEL: "compatible:fake",
  });
  await server.start();
});
test.afterAll(async () => {
  await server.dispose();
  await model.close();
});

test("a model provider that fails mid-stream ends the run with one clean error event", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  // A few words, then the connection is cut (no [DONE]). The planner's request gets "no plan".
  model.enqueue({
    kind: "stream",
    chunks: [{ type: "text", text: "Working on " }, { type: "text", text: "it, " }, { type: "reset" }],
  });
  const run = await client.runAgent(documentId, "tighten the intro");
  expect(run.status).toBe(200);
  expect(model.requests).toHaveLength(1);
  expect(idsOf(run.events)).toEqual(range(run.events.length));
  const last = run.events.at(-1);
  expect(last).toMatchObject({ type: "error", code: "model-error", recoverable: false });
  expect(run.events.filter((e) => e.type === "error" && !e.recoverable)).toHaveLength(1);
  expect(run.events.filter((e) => e.type === "finish")).toHaveLength(0);
  expect(run.callbacks).toEqual([]);
  // The run is over for the server too: nothing left to reattach to.
  await expect
    .poll(async () => (await client.fetch(`/api/llm/agent/active?documentId=${documentId}`)).json())
    .toEqual({ run: null });
});
