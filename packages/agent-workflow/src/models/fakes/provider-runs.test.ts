// The agent workflow, end to end, on each provider package against its fake: a
// turn with a tool call, and the documented failures reaching the run's
// `error` event as the sentence a writer reads.
import type { RunEvent } from "@coauthor/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { deliverToolResult } from "../../tool-results.ts";
import { agentWorkflow } from "../../workflows/agent/index.ts";
import { collectEvents, TEST_LIMITS } from "../../workflows/agent/test-harness.ts";
import { registerModel } from "../registry.ts";
import type { FakeFailure, FakeProviderServer, FakeReply } from "./fake-provider.ts";
import { PROVIDER_CASES } from "./providers.ts";

const NO_PLAN: FakeReply = { kind: "turn", turn: { text: ['{"goal":"","steps":[]}'] } };
const ARGS = '{"markdown":"Hello world","position":{"at":"end"}}';

describe.each(PROVIDER_CASES)("an agent run on $name", (provider) => {
  let fake: FakeProviderServer;
  let unregister = () => {};
  const modelId = `fake:${provider.fixture}`;
  beforeAll(async () => {
    fake = await provider.start();
    unregister = registerModel(modelId, () => provider.model(fake.baseURL, "test-key"));
  });
  afterAll(async () => {
    unregister();
    await fake.close();
  });

  /** A run: the planner's answer ("no plan" by default), then the model's replies in order. */
  async function run(replies: FakeReply[], planner: FakeReply = NO_PLAN) {
    fake.enqueue(planner, ...replies);
    const input = {
      userId: "u1",
      documentId: "d1",
      prompt: "append",
      messages: [],
      modelId,
      limits: TEST_LIMITS,
    };
    const started = await start(agentWorkflow, [input]);
    const events: RunEvent[] = await collectEvents(started.getReadable<string>(), async (event) => {
      if (event.type === "tool-call") {
        await deliverToolResult(started.runId, event.toolCallId, { ok: true, blockIds: ["b00000001"] });
      }
    });
    return { events, outcome: await started.returnValue };
  }

  it("plans, streams a tool call's input, runs the tool and finishes", async () => {
    const { events, outcome } = await run([
      {
        kind: "turn",
        turn: {
          text: ["Adding it."],
          toolCalls: [
            { id: "call_1", name: "insertBlocks", argumentPieces: [ARGS.slice(0, 20), ARGS.slice(20)] },
          ],
          usage: { input: 10, output: 5 },
        },
      },
      { kind: "turn", turn: { text: ["Done."], usage: { input: 20, output: 2 } } },
    ]);
    const streamed = events.map((e) => (e.type === "tool-input-delta" ? e.delta : "")).join("");
    expect(streamed).toBe(ARGS);
    expect(events.find((e) => e.type === "tool-call")).toMatchObject({
      toolName: "insertBlocks",
      input: JSON.parse(ARGS),
    });
    expect(outcome).toMatchObject({
      status: "done",
      summary: "Done.",
      usage: { inputTokens: 30, outputTokens: 7 },
    });
  });

  it("plans through the provider's structured output, runs the step and reflects", async () => {
    const plan = { goal: "Greet", steps: [{ description: "Say hello", tools: [] }] };
    const { events, outcome } = await run(
      [
        { kind: "turn", turn: { text: ["Hello."] } },
        { kind: "turn", turn: { text: ['{"decision":"done"}'] } },
      ],
      { kind: "turn", turn: { text: [JSON.stringify(plan)] } },
    );
    expect(events.find((e) => e.type === "plan")).toMatchObject({
      goal: "Greet",
      steps: [{ description: "Say hello" }],
    });
    const trail = events.flatMap((e) => (e.type === "step" ? [`${e.stepId}:${e.status}`] : []));
    expect(trail).toEqual(["s1:running", "s1:done"]);
    expect(outcome).toMatchObject({ status: "done", summary: "Hello." });
    // Planner and reflection asked without streaming, the turn streamed.
    expect(fake.requests.slice(-3).map((r) => r.streamed)).toEqual([false, true, false]);
  });

  const sentences: [FakeFailure, RegExp][] = [
    [{ kind: "bad-key" }, /did not accept this server's API key/],
    [{ kind: "context-too-long" }, /too long for this model/],
    [{ kind: "refused" }, /declined this request/],
  ];
  it.each(sentences)(
    "ends a run the provider answers with %o with a sentence the writer understands",
    async (failure, sentence) => {
      const { events, outcome } = await run([{ kind: "failure", failure }]);
      expect(events.at(-1)).toMatchObject({
        type: "error",
        message: expect.stringMatching(sentence),
        recoverable: false,
      });
      expect(outcome).toMatchObject({ status: "error" });
      // Not retried: the planner's request and one turn.
      expect(fake.requests.slice(-2).map((r) => r.streamed)).toEqual([false, true]);
    },
  );
});
