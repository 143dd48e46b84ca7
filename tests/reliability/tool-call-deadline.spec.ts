import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { isTerminalEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { RunStream, tokenClaims } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

// The hook token carries its tool call's deadline: a result after it is refused precisely (410),
// by any instance, before the token's `exp` (a margin later) would make it a plain 401.
const server = serverForThisFile({ AGENT_TOOL_DEADLINE_MS: "1000" });

test("a result posted after its tool call's deadline is refused with 410 tool_call_expired and changes nothing", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const stream = await RunStream.start(client, documentId, "count to 2");
  const call = (await stream.readUntil((event) => event.type === "tool-call")).at(-1);
  if (call?.type !== "tool-call") throw new Error("the run asked for no tool");
  const claims = tokenClaims(call.hookToken);
  // The token's deadline is the one the frame announces, well before the token expires.
  expect(claims.deadline).toBe(call.deadline);
  expect(claims.exp * 1000).toBeGreaterThan(call.deadline + 10_000);

  const result = await runEditorTool(createDocumentEditor(), call.toolName, call.input);
  // The browser was too slow: the run ends at the deadline, and the result comes after it.
  const end = (await stream.readUntil(isTerminalEvent)).at(-1);
  expect(end).toMatchObject({ type: "error", code: "tool-timeout" });
  await expect.poll(() => Date.now() > call.deadline).toBe(true);
  const late = await client.callback({ hookToken: call.hookToken, toolCallId: call.toolCallId, result });
  expect(late.status).toBe(410);
  expect(await late.json()).toMatchObject({ code: "gone:tool_call_expired" });
  // Nothing was recorded: the run's log has no result for the call.
  const replay = await (await RunStream.attach(client, stream.runId, 0)).readUntil(isTerminalEvent);
  expect(replay.filter((event) => event.type === "tool-result")).toEqual([]);
});
