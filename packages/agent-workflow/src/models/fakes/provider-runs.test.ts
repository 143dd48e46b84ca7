// The agent workflow, end to end, on each provider package against its fake: a
// turn with a tool call, and the documented failures reaching the run's
// `error` event as the sentence a writer reads.
import type { RunEvent } from "@coauthor/types";
import { describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { abortRun } from "../../run-control.ts";
import { deliverToolResult } from "../../tool-results.ts";
import { agentWorkflow } from "../../workflows/agent/index.ts";
import { collectEvents, TEST_LIMITS } from "../../workflows/agent/test-harness.ts";
import { chatAnswer, chatText } from "../chat.ts";
import type { FakeFailure, FakeReply } from "./fake-provider.ts";
import { PROVIDER_CASES, useFakeProvider } from "./providers.ts";

const NO_PLAN: FakeReply = { kind: "turn", turn: { text: ['{"goal":"","steps":[]}'] } };
const ARGS = '{"markdown":"Hello world","position":{"at":"end"}}';

describe.each(PROVIDER_CASES)("an agent run on $name", (provider) => {
  const modelId = `fake:${provider.fixture}`;
  const running = useFakeProvider(provider, modelId);

  /**
   * A run: the model's streamed replies in order, and its structured answers (the planner's, "no
   * plan" by default, then the reflections').
   */
  async function run(
    replies: FakeReply[],
    structured: FakeReply[] = [NO_PLAN],
    answer: (event: RunEvent, runId: string) => Promise<void> = async (event, runId) => {
      if (event.type === "tool-call")
        await deliverToolResult(runId, event.toolCallId, { ok: true, blockIds: ["b00000001"] });
    },
  ) {
    const from = running().requests.length;
    running().enqueueStructured(...structured);
    running().enqueue(...replies);
    const input = {
      userId: "u1",
      documentId: "d1",
      prompt: "append",
      messages: [],
      modelId,
      limits: TEST_LIMITS,
    };
    const started = await start(agentWorkflow, [input]);
    const events: RunEvent[] = await collectEvents(started.getReadable<string>(), (event) =>
      answer(event, started.runId),
    );
    return { events, outcome: await started.returnValue, requests: running().requests.slice(from) };
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
    const hello: FakeReply = { kind: "turn", turn: { text: ["Hello."] } };
    const { events, outcome, requests } = await run(
      // The run's first turn, asked for while the planner decided and dropped with the plan (if it
      // reached the provider before its abort), then the step's.
      [hello, hello],
      [
        { kind: "turn", turn: { text: [JSON.stringify(plan)] } },
        { kind: "turn", turn: { text: ['{"decision":"done"}'] } },
      ],
    );
    expect(events.find((e) => e.type === "plan")).toMatchObject({
      goal: "Greet",
      steps: [{ description: "Say hello" }],
    });
    const trail = events.flatMap((e) => (e.type === "step" ? [`${e.stepId}:${e.status}`] : []));
    expect(trail).toEqual(["s1:running", "s1:done"]);
    expect(outcome).toMatchObject({ status: "done", summary: "Hello." });
    // Planner and reflection asked without streaming, the turns streamed.
    expect(requests.filter((r) => !r.streamed)).toHaveLength(2);
    expect(requests.at(-1)?.streamed).toBe(false);
  });

  it("gives the model a tool's failure, and the model recovers from it", async () => {
    const call = (id: string) => ({
      kind: "turn" as const,
      turn: { toolCalls: [{ id, name: "insertBlocks", argumentPieces: [ARGS] }] },
    });
    let answered = 0;
    const { events, outcome } = await run(
      [call("call_1"), call("call_2"), { kind: "turn", turn: { text: ["Done on the second try."] } }],
      [NO_PLAN],
      async (event, runId) => {
        if (event.type !== "tool-call") return;
        answered++;
        const result =
          answered === 1
            ? { ok: false, code: "unknown-block", message: 'afterBlockId: no block has id "b9"' }
            : { ok: true, blockIds: ["b00000001"] };
        await deliverToolResult(runId, event.toolCallId, result);
      },
    );
    expect(
      events.filter((e) => e.type === "tool-result").map((e) => e.type === "tool-result" && e.ok),
    ).toEqual([false, true]);
    // The failure went back to the model in the provider's own tool-result format.
    expect(JSON.stringify(running().requests.at(-2)?.body)).toContain("unknown-block");
    expect(outcome).toMatchObject({ status: "done", summary: "Done on the second try." });
  });

  it("ends at once when the writer stops it mid-stream", async () => {
    let stopped = false;
    // The stream stalls after its first words and never ends by itself: the run can only finish as
    // cancelled if Stop cut the model call (else it would end at the model's time limit, an error).
    const { events, outcome } = await run(
      [{ kind: "stall", text: ["Thinking about it"] }],
      [NO_PLAN],
      async (event, runId) => {
        if (event.type === "text-delta" && !stopped) {
          stopped = true;
          abortRun(runId, "stopped by the writer");
        }
      },
    );
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });
    expect(outcome).toMatchObject({ status: "cancelled" });
  });

  it("answers in chat mode with no tools offered", async () => {
    running().enqueue({ kind: "turn", turn: { text: ["It is ", "about cats."] } });
    let finished = "";
    const answer = chatAnswer({
      modelId,
      markdown: "# Cats\n\nThey sleep.",
      messages: [],
      prompt: "What is it about?",
      signal: new AbortController().signal,
      onFinish: (text) => {
        finished = text;
      },
    });
    let text = "";
    for await (const delta of answer.textStream) text += delta;
    expect(text).toBe("It is about cats.");
    await answer.response;
    expect(finished).toBe("It is about cats.");
    const body = running().requests.at(-1)?.body ?? {};
    expect(body.tools ?? []).toEqual([]);
    expect(JSON.stringify(body)).toContain("They sleep.");
  });

  it("ends a chat answer the provider refuses with the sentence the writer understands", async () => {
    running().enqueue({ kind: "failure", failure: { kind: "bad-key" } });
    const failures: string[] = [];
    const answer = chatAnswer({
      modelId,
      markdown: "Text.",
      messages: [],
      prompt: "What is it about?",
      signal: new AbortController().signal,
      onFinish: () => undefined,
    });
    let text = "";
    for await (const delta of chatText(answer, (failure) => failures.push(failure.code))) text += delta;
    expect(failures).toEqual(["model-auth"]);
    expect(text).toMatch(/did not accept this server's API key/);
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
      expect(
        running()
          .requests.slice(-2)
          .map((r) => r.streamed),
      ).toEqual([false, true]);
    },
  );
});
