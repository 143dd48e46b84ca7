import { createDocumentEditor, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import {
  blockTexts,
  driveRun,
  idsOf,
  isTerminal,
  postResult,
  RunStream,
  range,
  tokenClaims,
} from "../lib/run-stream.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

// Client-side faults against one server of our own (room for many concurrent runs).
const server = serverForThisFile({
  MAX_CONCURRENT_RUNS_PER_USER: "5",
  MAX_CONCURRENT_RUNS_PER_DOCUMENT: "2",
  RATE_LIMIT_RUNS_PER_MINUTE: "60",
});

test("a dropped client connection does not stop the run; a reattach shows every event once, in order", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();

  const first = await RunStream.start(client, documentId, "count to 3");
  expect(first.status).toBe(200);
  const seen = await first.readUntil((event) => event.type === "tool-call");
  const call = seen.at(-1);
  if (call?.type !== "tool-call") throw new Error("no tool call before the stream ended");
  first.drop();
  // The tab is gone, yet its last tool result still arrives and the run goes on without anyone
  // attached: the next tool call shows up in the run's stream.
  expect(await postResult(client, call, await runEditorTool(editor, call.toolName, call.input))).toBe(204);
  const peek = await RunStream.attach(client, first.runId, 0);
  await peek.readUntil((event) => event.type === "tool-call" && event.toolCallId !== call.toolCallId);
  peek.drop();

  // A reloaded page asks which run to reattach to, and what was already answered.
  const active = await client.fetch(`/api/llm/agent/active?documentId=${documentId}`);
  expect(await active.json()).toMatchObject({
    run: { runId: first.runId, prompt: "count to 3", answeredToolCallIds: [call.toolCallId] },
  });

  const reattached = await RunStream.attach(client, first.runId, (seen.at(-1)?.id ?? -1) + 1);
  for (let event = await reattached.next(); event; event = await reattached.next()) {
    seen.push(event);
    if (event.type === "tool-call") {
      expect(await postResult(client, event, await runEditorTool(editor, event.toolName, event.input))).toBe(
        204,
      );
    }
    if (isTerminal(event)) break;
  }
  expect(seen.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(idsOf(seen)).toEqual(range(seen.length));
  const calls = seen.filter((e) => e.type === "tool-call").map((e) => e.toolCallId);
  expect(new Set(calls).size).toBe(calls.length);
  expect(calls).toHaveLength(3);
  expect(blockTexts(editor).filter((text) => text !== "")).toEqual(["1", "2", "3"]);
});

test("a tool that fails in the client gives the model an error result, and the run goes on", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument();
  const editor = createDocumentEditor();
  let calls = 0;
  const run = await client.runAgent(documentId, "count to 3", {
    editor,
    // What the panel posts when a tool throws in the browser (run-client turns the throw into this).
    answer: async (event, target) => {
      calls++;
      if (calls === 2) {
        return { ok: false, code: "internal-error", message: "the tool failed in the browser: boom" };
      }
      return runEditorTool(target, event.toolName, event.input);
    },
  });
  expect(run.callbacks.map((c) => c.status)).toEqual([204, 204]);
  const failed = run.events.find((e) => e.type === "tool-result" && !e.ok);
  expect(failed).toMatchObject({ type: "tool-result", ok: false, summary: expect.stringContaining("boom") });
  // The model read the failure and answered it; the run ended normally, not with an error.
  const text = run.events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");
  expect(text).toContain("boom");
  expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(blockTexts(editor).filter((t) => t !== "")).toEqual(["1"]);
});

test("twenty concurrent runs by five users all complete, each in its own stream and document", async () => {
  test.setTimeout(120_000);
  const users = await Promise.all(Array.from({ length: 5 }, () => new CoauthorClient(server.url).signIn()));
  const jobs = await Promise.all(
    users.flatMap((user) =>
      Array.from({ length: 4 }, async () => ({ user, documentId: await user.createDocument() })),
    ),
  );
  const runs = await Promise.all(
    jobs.map(async ({ user, documentId }) => {
      const editor = createDocumentEditor();
      const run = await driveRun(user, documentId, "count to 3", editor);
      return { user, documentId, editor, run };
    }),
  );
  expect(new Set(runs.map((r) => r.run.runId)).size).toBe(20);
  for (const { user, documentId, editor, run } of runs) {
    const events: RunEvent[] = run.events;
    expect(events.every((e) => e.runId === run.runId)).toBe(true);
    expect(idsOf(events)).toEqual(range(events.length));
    expect(events[0]).toMatchObject({ type: "run-start", documentId });
    expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({ type: "finish", status: "done" });
    for (const event of events) {
      if (event.type !== "tool-call") continue;
      expect(tokenClaims(event.hookToken)).toMatchObject({
        runId: run.runId,
        documentId,
        userId: user.userId,
      });
    }
    expect(run.callbackStatuses).toEqual([204, 204, 204]);
    expect(blockTexts(editor).filter((t) => t !== "")).toEqual(["1", "2", "3"]);
  }
});
