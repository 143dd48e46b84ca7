// The real OpenAI-compatible provider against a local fake chat-completions
// server, driven through the real agent workflow (no network, no mock model).
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { RunEvent } from "@coauthor/types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { deliverToolResult } from "../tool-results.ts";
import { agentWorkflow } from "../workflows/agent/index.ts";
import { collectEvents, TEST_LIMITS } from "../workflows/agent/test-harness.ts";
import type { AgentWorkflowInput } from "../workflows/agent/types.ts";
import { type FakeOpenAIServer, startFakeOpenAIServer, streamedTurn } from "./fake-openai-server.ts";
import { registerModel } from "./registry.ts";

const MODEL_ID = "compatible-test";
let server: FakeOpenAIServer;
let unregister: () => void = () => {};

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  const provider = createOpenAICompatible({
    name: "fake",
    baseURL: `${server.url}/v1`,
    apiKey: "test-key",
    includeUsage: true,
  });
  unregister = registerModel(MODEL_ID, () => provider.chatModel("fake-model"));
});
afterAll(async () => {
  unregister();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
  server.structuredRequests.length = 0;
});

const input = (prompt = "append a paragraph"): AgentWorkflowInput => ({
  userId: "u1",
  documentId: "d1",
  prompt,
  messages: [],
  modelId: MODEL_ID,
  limits: TEST_LIMITS,
});

const okInsert = { ok: true, blockIds: ["b00000001"] };
const hello = (usage = { promptTokens: 7, completionTokens: 3 }) =>
  streamedTurn({ text: ["Hel", "lo."], usage });

async function runToEnd(prompt?: string) {
  const started = Date.now();
  const run = await start(agentWorkflow, [input(prompt)]);
  const events = await collectEvents(run.getReadable<string>(), async (event) => {
    if (event.type === "tool-call") await deliverToolResult(run.runId, event.toolCallId, okInsert);
  });
  return { run, events, outcome: await run.returnValue, ms: Date.now() - started };
}

const textOf = (events: RunEvent[]) => events.map((e) => (e.type === "text-delta" ? e.delta : "")).join("");

const last = (events: RunEvent[]) => events.at(-1);
const gap = (a: number, b: number) => (server.requests[b]?.at ?? 0) - (server.requests[a]?.at ?? 0);

describe("OpenAI-compatible provider against a fake chat-completions server", () => {
  it("streams text and a tool call in pieces, sends the tool result back, and sums usage", async () => {
    const args = '{"markdown":"Hello world","position":{"at":"end"}}';
    server.enqueue(
      streamedTurn({
        text: ["I'll ", "add ", "it."],
        toolCalls: [
          {
            id: "call_1",
            name: "insertBlocks",
            argumentPieces: [args.slice(0, 15), args.slice(15, 33), args.slice(33)],
          },
        ],
        usage: { promptTokens: 11, completionTokens: 4 },
      }),
      streamedTurn({ text: ["Do", "ne."], usage: { promptTokens: 20, completionTokens: 2 } }),
    );
    const { events, outcome } = await runToEnd();

    const types = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    expect(types).toEqual([
      "run-start",
      "text-delta",
      "tool-input-delta",
      "tool-call",
      "tool-result",
      "text-delta",
      "finish",
    ]);
    expect(textOf(events)).toBe("I'll add it.Done.");
    const streamed = events.map((e) => (e.type === "tool-input-delta" ? e.delta : "")).join("");
    expect(streamed).toBe(args);
    // The provider's id, made unique in the run by the turns step that announced it.
    expect(events.find((e) => e.type === "tool-call")).toMatchObject({
      toolCallId: "s0.call_1",
      toolName: "insertBlocks",
      input: { markdown: "Hello world", position: { at: "end" } },
    });
    expect(last(events)).toMatchObject({ type: "finish", status: "done", summary: "Done." });
    expect(outcome).toEqual({
      status: "done",
      summary: "Done.",
      usage: { inputTokens: 31, outputTokens: 6, cachedInputTokens: 0, cacheWriteTokens: 0 },
      toolCalls: 1,
      reply: "I'll add it.\n\nDone.",
    });
    // The planner asked first, for structured output, and the answer was "no plan".
    expect(server.structuredRequests).toHaveLength(1);

    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((r) => r.body);
    expect(server.requests[0]?.authorization).toBe("Bearer test-key");
    expect(first).toMatchObject({ model: "fake-model", stream: true });
    expect(first?.tools?.map((t) => t.function.name)).toContain("insertBlocks");
    expect(first?.messages.at(-1)).toMatchObject({ role: "user", content: "append a paragraph" });
    const assistant = second?.messages.find((m) => m.role === "assistant");
    expect(assistant?.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "insertBlocks", arguments: args } },
    ]);
    const toolMessage = second?.messages.find((m) => m.role === "tool");
    expect(toolMessage?.tool_call_id).toBe("call_1");
    expect(JSON.parse(String(toolMessage?.content))).toEqual(okInsert);
  });

  it("retries a 429 after the server's retry-after (not the SDK's 2 s default)", async () => {
    server.enqueue({ kind: "error", status: 429, message: "Rate limit reached", retryAfterMs: 300 }, hello());
    const { events, outcome } = await runToEnd();
    expect(server.requests).toHaveLength(2);
    expect(gap(0, 1)).toBeGreaterThanOrEqual(280);
    expect(gap(0, 1)).toBeLessThan(1_900);
    expect(textOf(events)).toBe("Hello.");
    expect(outcome).toMatchObject({ status: "done", usage: { inputTokens: 7, outputTokens: 3 } });
  });

  it("retries two 500s and then succeeds", async () => {
    const boom = { kind: "error", status: 500, message: "boom", retryAfterMs: 20 } as const;
    server.enqueue(boom, boom, hello());
    const { events, outcome } = await runToEnd();
    expect(server.requests).toHaveLength(3);
    expect(textOf(events)).toBe("Hello.");
    expect(outcome).toMatchObject({ status: "done" });
  });

  it("backs off ~2 s (the SDK default) before retrying a 500 that names no retry-after", async () => {
    server.enqueue({ kind: "error", status: 500, message: "boom" }, hello());
    const { outcome } = await runToEnd();
    expect(server.requests).toHaveLength(2);
    expect(gap(0, 1)).toBeGreaterThanOrEqual(1_900);
    expect(outcome).toMatchObject({ status: "done" });
  });

  it("ends with a model-error after 3 attempts when the 500s persist", async () => {
    const boom = { kind: "error", status: 500, message: "boom", retryAfterMs: 10 } as const;
    server.enqueue(boom, boom, boom);
    const { events, outcome, ms } = await runToEnd();
    expect(server.requests).toHaveLength(3);
    expect(last(events)).toMatchObject({
      type: "error",
      code: "model-error",
      message: "The model call failed: model provider answered HTTP 500: boom (gave up after 3 attempts).",
      recoverable: false,
    });
    expect(outcome).toMatchObject({ status: "error", code: "model-error" });
    expect(ms).toBeLessThan(5_000);
  });

  it("does not retry a 401 and ends with model-auth, saying the key was refused", async () => {
    server.enqueue({ kind: "error", status: 401, message: "Incorrect API key provided" });
    const { events, ms } = await runToEnd();
    expect(server.requests).toHaveLength(1);
    expect(last(events)).toMatchObject({
      type: "error",
      code: "model-auth",
      message:
        "The model provider did not accept this server's API key; ask whoever runs Coauthor to check it.",
      recoverable: false,
    });
    expect(ms).toBeLessThan(5_000);
  });

  it("ends with a model-error on a malformed chunk, after the text streamed before it", async () => {
    server.enqueue({
      kind: "stream",
      chunks: [
        { type: "text", text: "Hi" },
        { type: "malformed", data: "{not json" },
        { type: "finish", reason: "stop" },
      ],
    });
    const { events, outcome, ms } = await runToEnd();
    expect(server.requests).toHaveLength(1);
    expect(textOf(events)).toBe("Hi");
    expect(last(events)).toMatchObject({
      type: "error",
      code: "model-error",
      message: 'The model call failed: model provider sent a malformed stream chunk: "{not json".',
      recoverable: false,
    });
    expect(outcome).toMatchObject({ status: "error", usage: { inputTokens: 0, outputTokens: 0 } });
    expect(ms).toBeLessThan(5_000);
  });

  it("ends with a model-error (not retried) when the connection is reset mid-stream", async () => {
    server.enqueue({ kind: "stream", chunks: [{ type: "text", text: "Hi" }, { type: "reset" }] });
    const { events, ms } = await runToEnd();
    expect(server.requests).toHaveLength(1);
    expect(textOf(events)).toBe("Hi");
    expect(last(events)).toMatchObject({ type: "error", code: "model-error", recoverable: false });
    const error = last(events);
    expect(error?.type === "error" && error.message).toMatch(
      /^The model call failed: model provider connection lost mid-response: /,
    );
    expect(ms).toBeLessThan(5_000);
  });

  it("plans through the provider's structured output and runs the plan step by step", async () => {
    server.enqueueStructured(
      JSON.stringify({
        goal: "Greet twice",
        steps: [
          { description: "Say hello", tools: [] },
          { description: "Say it again", tools: [] },
        ],
      }),
      '{"decision":"continue"}',
      '{"decision":"done"}',
    );
    // The run's first turn, asked for while the planner decided and dropped with the plan (if it
    // reached the server before its abort), then one turn per step.
    server.enqueue(hello(), hello(), hello());
    const { events, outcome } = await runToEnd("greet twice");
    expect(events[1]).toMatchObject({
      type: "plan",
      goal: "Greet twice",
      steps: [
        { id: "s1", description: "Say hello", status: "pending" },
        { id: "s2", description: "Say it again", status: "pending" },
      ],
    });
    const trail = events.flatMap((e) => (e.type === "step" ? [`${e.stepId}:${e.status}`] : []));
    expect(trail).toEqual(["s1:running", "s1:done", "s2:running", "s2:done"]);
    expect(outcome).toMatchObject({ status: "done", summary: "Hello." });
    // Planner, then one reflection per step, each asked for JSON without streaming.
    expect(server.structuredRequests).toHaveLength(3);
    const system = server.requests.at(-1)?.body.messages.find((m) => m.role === "system");
    expect(String(system?.content)).toContain("Current plan step: 2. Say it again");
  });

  it("works without a plan when the planner's request fails", async () => {
    server.enqueueStructured({ kind: "error", status: 401, message: "no" });
    server.enqueue(hello());
    const { events, outcome } = await runToEnd();
    expect(events.some((e) => e.type === "plan")).toBe(false);
    expect(outcome).toMatchObject({ status: "done", summary: "Hello." });
  });
});
