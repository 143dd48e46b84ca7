import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import {
  answerToEnd,
  blockTexts,
  idsOf,
  isTerminal,
  postResult,
  RunStream,
  range,
} from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

type ToolCall = Extract<RunEvent, { type: "tool-call" }>;

// The server process is killed with SIGKILL while two runs are in flight: one
// waiting for the browser's tool result, one in the middle of a model call.
const server = serverForThisFile({ AGENT_TOOL_DEADLINE_MS: "30000", MAX_CONCURRENT_RUNS_PER_USER: "5" });

/**
 * A run cut off by the restart ends once, clearly: a client reattaching after the last id it saw
 * (`lastSeen`) gets one `server-restarted` end, whose id is past everything it saw (frames that went
 * out live may never have become durable); replayed from the start, the run's events come each
 * once, in order, then that end. Returns the replay.
 */
async function expectEndedByRestart(client: CoauthorClient, runId: string, lastSeen: number) {
  const reattached = await (await RunStream.attach(client, runId, lastSeen + 1)).readUntil(isTerminal);
  expect(reattached).toHaveLength(1);
  expect(reattached[0]).toMatchObject({ type: "error", code: "server-restarted", recoverable: false });
  expect(reattached[0]?.id).toBeGreaterThan(lastSeen);
  const replay = await (await RunStream.attach(client, runId, 0)).readUntil(isTerminal);
  const beforeEnd = idsOf(replay).slice(0, -1);
  expect(beforeEnd).toEqual(range(beforeEnd.length));
  expect(replay.at(-1)).toEqual(reattached[0]);
  return replay;
}

test("a server killed mid-run comes back: a run waiting for a tool goes on, one cut off mid model call ends with server-restarted", async () => {
  test.setTimeout(120_000);
  const client = await new CoauthorClient(server.url).signIn();
  const toolDocument = await client.createDocument();
  const modelDocument = await client.createDocument();

  // Run A: the first tool call is answered; the second is applied here, but the server dies
  // before its result is delivered.
  const editor = createDocumentEditor();
  const executed: string[] = [];
  const runA = await RunStream.start(client, toolDocument, "count to 3");
  expect(runA.status).toBe(200);
  const seenA: RunEvent[] = [];
  let pending: { call: ToolCall; result: unknown } | null = null;
  while (!pending) {
    const event = await runA.next();
    if (!event) throw new Error("run A ended early");
    seenA.push(event);
    if (event.type !== "tool-call") continue;
    executed.push(event.toolCallId);
    const result = await runEditorTool(editor, event.toolName, event.input);
    if (executed.length === 1) expect(await postResult(client, event, result)).toBe(204);
    else pending = { call: event, result };
  }

  // Run B: a long model answer, cut off after a few words.
  const runB = await RunStream.start(client, modelDocument, "write 400 words");
  expect(runB.status).toBe(200);
  const seenB = await runB.readUntil((event) => event.type === "text-delta" && event.id >= 5);
  expect(seenB.at(-1)?.type).toBe("text-delta");

  await server.kill("SIGKILL");
  await server.start();

  // The browser delivers the result it could not post before, then reattaches after the last
  // event it saw and runs what comes next (each call once).
  expect(await postResult(client, pending.call, pending.result)).toBe(204);
  const reattached = await RunStream.attach(client, runA.runId, (seenA.at(-1)?.id ?? -1) + 1);
  expect(reattached.status).toBe(200);
  const finish = await answerToEnd(client, reattached, editor, executed, seenA);
  expect(finish).toMatchObject({ type: "finish", status: "done" });
  expect(blockTexts(editor).filter((text) => text !== "")).toEqual(["1", "2", "3"]);
  expect(idsOf(seenA)).toEqual(range(seenA.length));

  // The whole of run A, replayed: every event once, every tool call once with one result.
  const replayA = await (await RunStream.attach(client, runA.runId, 0)).readUntil(isTerminal);
  expect(idsOf(replayA)).toEqual(range(replayA.length));
  const calls = replayA.flatMap((e) => (e.type === "tool-call" ? [e.toolCallId] : []));
  const results = replayA.flatMap((e) => (e.type === "tool-result" ? [e.toolCallId] : []));
  expect(calls).toEqual(executed);
  expect(results).toEqual(executed);

  // Run B could not carry on (its model call died with the process): it ends, clearly, once.
  const replayB = await expectEndedByRestart(client, runB.runId, seenB.at(-1)?.id ?? 0);
  expect(replayB.filter((e) => e.type === "text-delta").length).toBeGreaterThan(0);

  // Neither run is left "running": nothing to reattach, and the documents take new runs.
  for (const documentId of [toolDocument, modelDocument]) {
    await expect
      .poll(async () => (await client.fetch(`/api/llm/agent/active?documentId=${documentId}`)).json())
      .toEqual({ run: null });
  }
});

// On the local world the route that starts a run does its first step's work itself (opening the
// run, planning, the first model turn) while the engine starts the run; the engine's step takes
// that work over tens of milliseconds later (a probe in the step, run while this test was written,
// saw the kill below land before it every time). The server is killed the moment the first words
// arrive: what went out live never became durable, but the model-phase mark was saved before it
// went out, so the run ends cleanly once, past anything seen.
test("a server killed at a run's first words, before its step took the work over, ends the run with server-restarted", async () => {
  test.setTimeout(120_000);
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const run = await RunStream.start(client, documentId, "write 400 words");
  expect(run.status).toBe(200);
  const seen = await run.readUntil((event) => event.type === "text-delta");
  expect(seen.at(-1)?.type).toBe("text-delta");

  await server.kill("SIGKILL");
  await server.start();

  await expectEndedByRestart(client, run.runId, seen.at(-1)?.id ?? 0);
  await expect
    .poll(async () => (await client.fetch(`/api/llm/agent/active?documentId=${documentId}`)).json())
    .toEqual({ run: null });
  // The document takes a new run, which runs to its end.
  const next = await RunStream.start(client, documentId, "write 3 words");
  expect(next.status).toBe(200);
  expect((await next.readUntil(isTerminal)).at(-1)).toMatchObject({ type: "finish", status: "done" });
});
