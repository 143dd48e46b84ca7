import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { idsOf, isTerminal, postResult, RunStream, range } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

// A server whose heartbeat comes after 0.5 s of silence (15 s by default).
const server = serverForThisFile({ SSE_HEARTBEAT_MS: "500" });

test("a silent stream gets heartbeats that repeat the last id and are never stored", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();
  const stream = await RunStream.start(client, documentId, "count to 1");
  const seen = await stream.readUntil((event) => event.type === "tool-call");
  const call = seen.at(-1);
  if (call?.type !== "tool-call") throw new Error("no tool call");

  // The browser takes its time: the stream is silent, so heartbeats keep it alive.
  await new Promise((resolve) => setTimeout(resolve, 1_800));

  expect(await postResult(client, call, await runEditorTool(editor, call.toolName, call.input))).toBe(204);
  for (let event = await stream.next(); event; event = await stream.next()) {
    seen.push(event);
    if (isTerminal(event)) break;
  }
  expect(seen.at(-1)).toMatchObject({ type: "finish", status: "done" });
  // Read in order after the wait: the heartbeats came while the tool call was pending.
  expect(stream.heartbeats.length).toBeGreaterThanOrEqual(1);
  expect(stream.heartbeats.every((beat) => beat.id === call.id && beat.runId === stream.runId)).toBe(true);
  expect(idsOf(seen)).toEqual(range(seen.length));

  // The stored event log has the run's events only.
  const stored = (await (await client.fetch(`/api/runs/${stream.runId}/events?offset=0`)).text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; id: number });
  expect(stored.map((event) => event.type)).not.toContain("heartbeat");
  expect(stored.map((event) => event.id)).toEqual(range(seen.length));
});
