import { createDocumentEditor, listSuggestions, nextClock, recordCall, runEditorTool } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import { CoauthorClient } from "../lib/coauthor-client.ts";
import { RunStream } from "../lib/run-stream.ts";
import { SyncClient } from "../lib/sync-client.ts";
import { expect, test } from "../lib/test.ts";
import { serverForThisFile } from "./file-server.ts";

// Runs that go on without a browser (issue #39): a tool call no tab takes is run by the server on
// the live document, exactly once; a tab holding the run's lease keeps its calls.
const server = serverForThisFile({ AGENT_SERVER_TAKEOVER_MS: "1000", AGENT_TOOL_DEADLINE_MS: "20000" });

const toolCalls = (events: RunEvent[]) => events.filter((event) => event.type === "tool-call");

test("a run whose writer has no tab open goes on: the server runs its calls on the live document", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("First line.");
  const stream = await RunStream.start(client, documentId, 'append "Written with no tab open"');
  // Nobody answers: the run must still end done, its edit in the document.
  const events = await stream.readUntil(isTerminalEvent);
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(toolCalls(events)).toHaveLength(1);
  expect(events.filter((event) => event.type === "tool-result")).toMatchObject([{ ok: true }]);
  expect(await client.documentMarkdown(documentId)).toBe("First line.\n\nWritten with no tab open");
});

test("a tab that comes back after the server ran the call finds it answered; the edit lands once", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Start.");
  const stream = await RunStream.start(client, documentId, 'append "Once"');
  const events = await stream.readUntil(isTerminalEvent);
  const call = toolCalls(events)[0];
  if (call?.type !== "tool-call") throw new Error("the run asked for no tool");
  const late = await client.callback({
    hookToken: call.hookToken,
    toolCallId: call.toolCallId,
    result: await runEditorTool(createDocumentEditor(), call.toolName, call.input),
  });
  expect(late.status).toBe(409);
  expect(await client.documentMarkdown(documentId)).toBe("Start.\n\nOnce");
});

test("a tab that holds the run's lease keeps its calls, however slow it answers", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Tab's document.");
  const stream = await RunStream.start(client, documentId, 'append "From the tab"');
  const tabId = "tab-holding-lease";
  const claim = () =>
    client.fetch(`/api/llm/agent/${stream.runId}/lease`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tabId }),
    });
  expect(await (await claim()).json()).toMatchObject({ granted: true });
  const call = (await stream.readUntil((event) => event.type === "tool-call")).at(-1);
  if (call?.type !== "tool-call") throw new Error("the run asked for no tool");
  // Three times the takeover delay, renewing the lease as a live tab does.
  for (let renewal = 0; renewal < 3; renewal++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await (await claim()).json()).toMatchObject({ granted: true });
  }
  const editor = createDocumentEditor();
  const answered = await client.callback({
    hookToken: call.hookToken,
    toolCallId: call.toolCallId,
    result: await runEditorTool(editor, call.toolName, call.input),
  });
  // The tab's result is the one recorded: the server never ran the call.
  expect(answered.status).toBe(204);
  const events = await stream.readUntil(isTerminalEvent);
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  // The tab's edit went to its own (detached) editor here, so the live document is unchanged.
  expect(await client.documentMarkdown(documentId)).toBe("Tab's document.");
});

test("a Suggest-mode run goes on as suggestions: the server proposes what the writer's tab would have", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Kept line.");
  const stream = await RunStream.start(client, documentId, 'append "Only proposed"', { editMode: "suggest" });
  const events = await stream.readUntil(isTerminalEvent);
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  const copy = new SyncClient({ baseURL: server.url, cookie: client.cookie, documentId });
  try {
    await copy.synced();
    expect(listSuggestions(copy.bound.editor)).toMatchObject([
      { inserted: "Only proposed", deleted: "", authorId: client.userId, runId: stream.runId },
    ]);
    expect(listSuggestions(copy.bound.editor)[0]?.authorName).toMatch(/^Coauthor for /);
  } finally {
    copy.close();
  }
});

test("the writer's switch to Suggest mid-run reaches the server with the lease, and the server's next call suggests", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Switched.");
  const stream = await RunStream.start(client, documentId, 'append "Proposed after the switch"');
  // The tab switched to Suggest and then closed: its last lease ask said so, then the lease lapsed.
  const asked = await client.fetch(`/api/llm/agent/${stream.runId}/lease`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tabId: "tab-that-switched", editMode: "suggest" }),
  });
  expect(await asked.json()).toMatchObject({ granted: true });
  // Held while the call is announced, so the server cannot have taken it before the switch.
  const beforeCall = await stream.readUntil((event) => event.type === "tool-call");
  await client.fetch(`/api/llm/agent/${stream.runId}/lease`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tabId: "tab-that-switched", release: true }),
  });
  const events = [...beforeCall, ...(await stream.readUntil(isTerminalEvent))];
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  const copy = new SyncClient({ baseURL: server.url, cookie: client.cookie, documentId });
  try {
    await copy.synced();
    expect(listSuggestions(copy.bound.editor).map((suggestion) => suggestion.inserted)).toEqual([
      "Proposed after the switch",
    ]);
  } finally {
    copy.close();
  }
});

test("a run in the background is the server's from its first call: a tab asking for its lease is refused and only follows", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Before the background run.");
  const stream = await RunStream.start(client, documentId, "count to 3", { background: true });
  expect(stream.status).toBe(200);
  const ask = async () =>
    (
      await client.fetch(`/api/llm/agent/${stream.runId}/lease`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tabId: "a-tab-of-the-writer" }),
      })
    ).json();
  // Asked before the first call and while the run goes: never granted.
  expect(await ask()).toMatchObject({ granted: false });
  const events = await stream.readUntil(isTerminalEvent);
  expect(await ask()).toMatchObject({ granted: false });
  expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  expect(toolCalls(events)).toHaveLength(3);
  expect(events.filter((event) => event.type === "tool-result")).toMatchObject([
    { ok: true },
    { ok: true },
    { ok: true },
  ]);
  // Each call ran once, on the live document.
  expect(await client.documentMarkdown(documentId)).toBe("Before the background run.\n\n1\n\n2\n\n3");
});

test("a tab that ran the call offline while the server ran it too: its edit arrives and is deleted, its writer's typing stays", async () => {
  const client = await new CoauthorClient(server.url).signIn();
  const documentId = await client.createDocument("Start.");
  const tab = new SyncClient({ baseURL: server.url, cookie: client.cookie, documentId });
  try {
    await tab.synced();
    const stream = await RunStream.start(client, documentId, 'append "Once"');
    const call = (await stream.readUntil((event) => event.type === "tool-call")).at(-1);
    if (call?.type !== "tool-call") throw new Error("the run asked for no tool");
    // The tab goes offline, runs the call there (recording it as a tab does) and its writer types.
    tab.socket.disconnect();
    const from = nextClock(tab.doc);
    const output = await runEditorTool(tab.bound.editor, call.toolName, call.input);
    recordCall(tab.doc, `${call.runId}:${call.toolCallId}`, output, tab.bound, from);
    const read = await runEditorTool(tab.bound.editor, "readDocument", {});
    const first = (read as { blocks: Array<{ id: string }> }).blocks[0]?.id;
    await runEditorTool(tab.bound.editor, "replaceBlock", {
      blockId: first,
      markdown: "Start, typed offline.",
    });
    // No tab holds the lease: the server runs the call on the live document.
    expect((await stream.readUntil(isTerminalEvent)).at(-1)).toMatchObject({
      type: "finish",
      status: "done",
    });
    expect(await client.documentMarkdown(documentId)).toBe("Start.\n\nOnce");

    await tab.socket.connect();
    await tab.flushed();
    const blocks = async () => (await client.documentMarkdown(documentId)).split("\n\n").sort();
    await expect.poll(blocks).toEqual(["Once", "Start, typed offline."]);
    expect(server.log).toContain("deleted the edit of a tool call run a second time");
    await expect.poll(() => tab.markdown().split("\n\n").sort()).toEqual(["Once", "Start, typed offline."]);
  } finally {
    tab.close();
  }
});
