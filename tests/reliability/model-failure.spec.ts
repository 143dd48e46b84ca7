import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";
import { type FailingModelServer, startFailingModelServer } from "./fake-model.ts";
import { idsOf, range } from "./run-stream.ts";
import { AppServer } from "./server.ts";

let model: FailingModelServer;
let server: AppServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  model = await startFailingModelServer();
  // The real OpenAI-compatible provider, pointed at a model server that dies mid-answer.
  server = new AppServer({
    OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
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
  const run = await client.runAgent(documentId, "tighten the intro");
  expect(run.status).toBe(200);
  expect(model.cutOff()).toBeGreaterThanOrEqual(1);
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
