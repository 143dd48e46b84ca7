import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import {
  PROTOCOL_OUTDATED_MESSAGE,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_ERROR,
  PROTOCOL_VERSION_HEADER,
  type RunEvent,
} from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { RunStream } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";

// A tab on other code than the server's (a rolling restart) is refused before anything happens:
// no run starts, no frame is sent, no result is taken. The page's side is in
// apps/editor/src/components/assistant/protocol-version.test.ts.
const OLDER = { [PROTOCOL_VERSION_HEADER]: "0.9" };
const NONE = { [PROTOCOL_VERSION_HEADER]: "" };

async function expectRefused(response: Response) {
  expect(response.status).toBe(409);
  expect(response.headers.get(PROTOCOL_VERSION_HEADER)).toBe(PROTOCOL_VERSION);
  const body = (await response.json()) as { code: string; message: string };
  expect(body.code).toBe(PROTOCOL_VERSION_ERROR);
  expect(body.message).toContain(PROTOCOL_OUTDATED_MESSAGE);
}

test("starting a run with another protocol version, or none, is refused with 409 and starts nothing", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument();
  for (const headers of [OLDER, NONE]) {
    await expectRefused(
      await client.fetch("/api/llm/agent", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ documentId, prompt: "count to 2", mode: "agent" }),
      }),
    );
  }
  const active = await client.fetch(`/api/llm/agent/active?documentId=${documentId}`);
  expect(await active.json()).toEqual({ run: null });
});

test("attaching and posting a result with another protocol version are refused, and the result is not taken", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument();
  const stream = await RunStream.start(client, documentId, "count to 1");
  expect(stream.status).toBe(200);
  const call = (await stream.readUntil((event) => event.type === "tool-call")).at(-1);
  if (call?.type !== "tool-call") throw new Error("the run asked for no tool");

  await expectRefused(await client.fetch(`/api/llm/agent/${stream.runId}/stream?from=0`, { headers: OLDER }));
  const result = await runEditorTool(createDocumentEditor(), call.toolName, call.input);
  // Another result under the old version: had it been taken, the real one below would conflict.
  await expectRefused(
    await client.fetch("/api/llm/agent/callback", {
      method: "POST",
      headers: { "content-type": "application/json", ...OLDER },
      body: JSON.stringify({ hookToken: call.hookToken, toolCallId: call.toolCallId, result: { ok: false } }),
    }),
  );
  const accepted = await client.callback({ hookToken: call.hookToken, toolCallId: call.toolCallId, result });
  expect(accepted.status).toBe(204);
  const rest: RunEvent[] = await stream.readUntil((event) => event.type === "finish");
  expect(rest.find((event) => event.type === "tool-result")).toMatchObject({
    toolCallId: call.toolCallId,
    ok: true,
  });
  expect(rest.at(-1)).toMatchObject({ type: "finish", status: "done" });
});
