import { CoauthorClient } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

const start = (client: CoauthorClient, body: unknown) =>
  client.fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

test.describe("who may start runs", () => {
  test("a request without a session is refused with 401", async ({ baseURL }) => {
    const anonymous = new CoauthorClient(baseURL ?? "");
    const response = await start(anonymous, { documentId: "x", prompt: "hi", mode: "agent" });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "unauthorized:agent" });
  });

  test("another user's document is refused with 403, a missing one with 404", async ({ baseURL }) => {
    const owner = await new CoauthorClient(baseURL ?? "").signIn();
    const intruder = await new CoauthorClient(baseURL ?? "").signIn();
    const documentId = await owner.createDocument("Private.");
    const forbidden = await start(intruder, { documentId, prompt: 'append "x"', mode: "agent" });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: "forbidden:document" });
    const chat = await intruder.fetch("/api/llm/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId, prompt: "what?", mode: "chat" }),
    });
    expect(chat.status).toBe(403);
    const missing = await start(intruder, { documentId: "no-such-document", prompt: "x", mode: "agent" });
    expect(missing.status).toBe(404);
  });

  test("malformed bodies get a 400 that says what is wrong", async ({ baseURL }) => {
    const client = await new CoauthorClient(baseURL ?? "").signIn();
    const documentId = await client.createDocument();
    const notJson = await start(client, "{not json");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      code: "bad_request:agent",
      message: "body is not valid JSON",
    });
    const emptyPrompt = await start(client, { documentId, prompt: "   ", mode: "agent" });
    expect(emptyPrompt.status).toBe(400);
    expect((await emptyPrompt.json()).message).toContain("prompt");
    const badModel = await start(client, { documentId, prompt: "x", mode: "agent", model: "gpt-nope" });
    expect(badModel.status).toBe(400);
  });
});
