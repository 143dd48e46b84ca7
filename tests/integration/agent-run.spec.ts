import { createDocumentEditor, exportMarkdown, runEditorTool } from "@coauthor/tools";
import type { RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { sharedServerDataDir } from "../lib/shared-server.ts";
import { expect, test } from "../lib/test.ts";

test.describe("agent run over HTTP", () => {
  let client: CoauthorClient;
  test.beforeEach(async ({ baseURL }) => {
    client = await new CoauthorClient(baseURL ?? "").signIn();
  });

  test("streams SSE with the spec's headers and framing, and the tool edit lands", async () => {
    const documentId = await client.createDocument("First paragraph.");
    const editor = createDocumentEditor({ markdown: "First paragraph." });
    const run = await client.runAgent(documentId, 'append "Hello from the agent"', { editor });

    expect(run.status).toBe(200);
    expect(run.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(run.headers.get("cache-control")).toContain("no-store");
    expect(run.headers.get("x-accel-buffering")).toBe("no");
    expect(run.runId).toMatch(/^wrun_/);
    expect(run.events.map((e) => e.id)).toEqual(run.events.map((_, i) => i));
    expect(run.events.every((e) => e.runId === run.runId)).toBe(true);
    expect(run.events[0]).toMatchObject({ type: "run-start", documentId, mode: "agent", model: "offline" });
    expect(run.events.filter((e) => e.type === "tool-call").map((e) => e.toolName)).toEqual(["insertBlocks"]);
    // What the call did, for the activity sentence and its link: one block, named by its id.
    expect(run.events.find((e) => e.type === "tool-result")).toMatchObject({
      ok: true,
      facts: { count: 1, blockIds: [expect.any(String)] },
    });
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
    expect(run.callbacks.map((c) => c.status)).toEqual([204]);
    expect(exportMarkdown(editor)).toBe("First paragraph.\n\nHello from the agent");
  });

  test("a repeated callback answers 204 and resumes nothing; another body with the used token answers 409", async () => {
    const documentId = await client.createDocument();
    const statuses: number[] = [];
    const run = await client.runAgent(documentId, "count to 2", {
      answer: async (event, editor) => {
        const { runEditorTool } = await import("@coauthor/tools");
        const result = await runEditorTool(editor, event.toolName, event.input);
        const body = { hookToken: event.hookToken, toolCallId: event.toolCallId, result };
        statuses.push((await client.callback(body)).status);
        // The client's own post (after this returns) is the repeat.
        const other = await client.callback({ ...body, result: { ok: true, blockIds: ["bzzzzzzzz"] } });
        statuses.push(other.status);
        return result;
      },
    });
    expect(statuses).toEqual([204, 409, 204, 409]);
    expect(run.callbacks.map((c) => c.status)).toEqual([204, 204]);
    const toolResults = run.events.filter((e) => e.type === "tool-result");
    expect(toolResults).toHaveLength(2);
    expect(run.events.filter((e) => e.type === "tool-call")).toHaveLength(2);
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Counted to 2." });
  });

  test("Stop ends the run on the server within a second, with no tool call after it", async () => {
    const documentId = await client.createDocument();
    let cancelledAt = 0;
    const run = await client.runAgent(documentId, "count to 30", {
      onEvent: (event) => {
        if (event.type === "tool-call" && event.toolCallId === "s0.offline_call_3" && !cancelledAt) {
          cancelledAt = Date.now();
          return "stop";
        }
        return undefined;
      },
    });
    const endedAt = Date.now();
    expect(run.cancelStatus).toBe(204);
    expect(endedAt - cancelledAt).toBeLessThan(1_000);
    const calls = run.events.filter((e) => e.type === "tool-call");
    expect(calls.map((e) => e.type === "tool-call" && e.toolCallId)).toEqual([
      "s0.offline_call_1",
      "s0.offline_call_2",
      "s0.offline_call_3",
    ]);
    expect(run.events.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });
    // A late result for the cancelled call, once the run has wound down, resumes nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = run.events.find((e) => e.type === "tool-call" && e.toolCallId === "s0.offline_call_3");
    if (late?.type !== "tool-call") throw new Error("no third call");
    const response = await client.callback({
      hookToken: late.hookToken,
      toolCallId: late.toolCallId,
      result: { ok: true, blockIds: ["b12345678"] },
    });
    expect(response.status).toBe(409);
  });

  test("chat mode streams an answer and leaves the document unchanged", async () => {
    const documentId = await client.createDocument("# Notes\n\nOne two three.");
    const before = await client.documentMarkdown(documentId);
    expect(before).toBe("# Notes\n\nOne two three.");
    const response = await client.fetch("/api/llm/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId, prompt: "What is in here?", mode: "chat" }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('The document has 4 words. Headings: "Notes".');
    expect(await client.documentMarkdown(documentId)).toBe(before);
  });
});

test("workflow runs are kept in the data folder, not in .next (a rebuild keeps them)", async ({
  baseURL,
}) => {
  const { readdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument();
  const run = await client.runAgent(documentId, "hello");
  const runs = readdirSync(join(sharedServerDataDir(), "workflow", "runs"));
  expect(runs.some((file) => file.startsWith(run.runId))).toBe(true);
});

test("an ended run leaves only its log in the local world, done or stopped: its events and step records go at a later run's start, its log still reads back", async ({
  baseURL,
}) => {
  const { readdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  const world = join(sharedServerDataDir(), "workflow");
  const filesOf = (folder: string, runId: string) => {
    try {
      return readdirSync(join(world, folder)).filter((file) => file.startsWith(runId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  };
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("First paragraph.");
  const done = await client.runAgent(documentId, 'append "Kept in the log"', {
    editor: createDocumentEditor({ markdown: "First paragraph." }),
  });
  expect(done.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  const stopped = await client.runAgent(documentId, "count to 30", {
    onEvent: (event) =>
      event.type === "tool-call" && event.toolCallId === "s0.offline_call_2" ? "stop" : undefined,
  });
  expect(stopped.events.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });

  // Every replay lists the whole events folder: what an ended run kept there would slow every later
  // run's start and step ends. They go at a later run's admission, a second or more after their end.
  const engineState = () =>
    [done, stopped].flatMap((run) => [...filesOf("events", run.runId), ...filesOf("steps", run.runId)]);
  expect(engineState()).not.toEqual([]);
  await expect
    .poll(
      async () => {
        await client.runAgent(documentId, "hello");
        return engineState();
      },
      { timeout: 15_000 },
    )
    .toEqual([]);
  for (const run of [done, stopped]) {
    expect(filesOf("runs", run.runId)).toEqual([`${run.runId}.json`]);
    const log = await client.fetch(`/api/runs/${run.runId}/events`);
    expect(log.status).toBe(200);
    const events = (await log.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; type: string });
    expect(events.map((event) => event.id)).toEqual(run.events.map((event) => event.id));
    expect(events.at(-1)).toMatchObject({ type: "finish" });
  }
});

test("what people decided about a run's suggestions reaches its model with the next result", async ({
  baseURL,
}) => {
  const client = await new CoauthorClient(baseURL ?? "").signIn();
  const documentId = await client.createDocument("First.");
  const told = [{ decision: "reject", by: "Bob", blockId: null, text: "Old idea." }];
  // The tab hands the run's outcomes over with a call's result (suggestion-outcomes.ts).
  const run = await client.runAgent(documentId, 'append "Next."', {
    answer: async (event, editor) => ({
      ...(await runEditorTool(editor, event.toolName, event.input)),
      decidedByPeople: told,
    }),
  });
  expect(run.callbacks.map((callback) => callback.status)).toEqual([204]);
  const answer = run.events
    .map((event: RunEvent) => (event.type === "text-delta" ? event.delta : ""))
    .join("");
  expect(answer).toContain("Bob rejected my suggestion “Old idea.”.");
});
