import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { blockTexts, idsOf, isTerminal, postResult, RunStream, range } from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

type ToolCall = Extract<RunEvent, { type: "tool-call" }>;

// The server is killed with SIGKILL in the middle of a pipeline: round 2's writer has applied its
// edit in the browser, but the result never reached the server. After the restart the pipeline
// finishes, and every agent that finished before the kill ran exactly once.
const server = serverForThisFile({ AGENT_TOOL_DEADLINE_MS: "30000" });

test("a pipeline killed mid-run resumes: finished agents never run again, every edit lands once", async () => {
  test.setTimeout(120_000);
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();
  const executed: string[] = [];
  const run = await RunStream.start(client, documentId, 'append "Draft."', { recipeId: "review-and-revise" });
  expect(run.status).toBe(200);
  const seen: RunEvent[] = [];
  let pending: { call: ToolCall; result: unknown } | null = null;
  while (!pending) {
    const event = await run.next();
    if (!event) throw new Error("the pipeline ended early");
    seen.push(event);
    if (event.type !== "tool-call") continue;
    executed.push(event.toolCallId);
    const result = await runEditorTool(editor, event.toolName, event.input);
    // Round 1: the writer's insert and the critic's read; round 2's insert is cut off.
    if (executed.length < 3) expect(await postResult(client, event, result)).toBe(204);
    else pending = { call: event, result };
  }

  await server.kill("SIGKILL");
  await server.start();

  expect(await postResult(client, pending.call, pending.result)).toBe(204);
  const reattached = await RunStream.attach(client, run.runId, (seen.at(-1)?.id ?? -1) + 1);
  let finish: RunEvent | null = null;
  while (!finish) {
    const event = await reattached.next();
    if (!event) throw new Error("the stream ended without a last frame");
    seen.push(event);
    if (isTerminal(event)) finish = event;
    if (event.type !== "tool-call") continue;
    expect(executed).not.toContain(event.toolCallId);
    executed.push(event.toolCallId);
    expect(await postResult(client, event, await runEditorTool(editor, event.toolName, event.input))).toBe(
      204,
    );
  }
  expect(finish).toMatchObject({ type: "finish", status: "done" });
  expect(blockTexts(editor).filter((text) => text !== "")).toEqual(["Draft.", "Draft."]);

  // The whole run, replayed: every event once; each agent step finished once per round.
  const replay = await (await RunStream.attach(client, run.runId, 0)).readUntil(isTerminal);
  expect(idsOf(replay)).toEqual(range(replay.length));
  const done = replay.flatMap((event) =>
    event.type === "pipeline-step" && event.status === "done" ? [event.path] : [],
  );
  expect(done).toEqual(["0.loop.0", "0.loop.1", "0.loop.0", "0.loop.1", "0"]);
  const calls = replay.flatMap((event) => (event.type === "tool-call" ? [event.toolName] : []));
  expect(calls).toEqual(["insertBlocks", "readDocument", "insertBlocks", "readDocument"]);
});
