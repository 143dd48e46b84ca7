import type { RunEvent } from "@coauthor/types";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { start } from "workflow/api";
import { configureAgentStore, memoryAgentStore } from "../../agent-store.ts";
import { armedDeadlines } from "../../deadlines.ts";
import { verifyHookToken } from "../../hook-token.ts";
import { hookTokenKey } from "../../hook-token-key.ts";
import { subscribeLive } from "../../live/frames.ts";
import { registerModel } from "../../models/registry.ts";
import { beginRunStart } from "../../pipelines/opening-step.ts";
import { abortRun, trackedRuns } from "../../run-control.ts";
import { deliverToolResult } from "../../tool-results.ts";
import { agentWorkflow } from "./index.ts";
import { abandonRunStart } from "./steps/run-start-early.ts";
import { collectEvents, noPlanAnswer, registerScriptedModel, TEST_LIMITS } from "./test-harness.ts";
import type { AgentWorkflowInput } from "./types.ts";

const input = (modelId: string, overrides: Partial<AgentWorkflowInput> = {}): AgentWorkflowInput => ({
  userId: "u1",
  documentId: "d1",
  prompt: "append a paragraph",
  messages: [],
  modelId,
  limits: { ...TEST_LIMITS },
  ...overrides,
});

/** A model's streamed answer of one text delta and no tool call (a `doStream` result). */
const textAnswer = (delta: string) => ({
  stream: simulateReadableStream({
    chunks: [
      { type: "text-start" as const, id: "t" },
      { type: "text-delta" as const, id: "t", delta },
      { type: "text-end" as const, id: "t" },
      {
        type: "finish" as const,
        finishReason: { unified: "stop" as const, raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
      },
    ],
  }),
});

const okInsert = { ok: true, blockIds: ["b00000001"] };
const emptyRead = { ok: true, blocks: [], totalBlocks: 0, nextFromBlock: null };
let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup) fn();
  cleanup = [];
});

describe("agent workflow", () => {
  it("streams run-start, text, a tool call resumed by its hook, the result and finish, in id order", async () => {
    const model = registerScriptedModel("scripted-basic", [
      {
        text: "Adding it now.",
        toolCalls: [
          { toolCallId: "c1", toolName: "insertBlocks", input: { markdown: "Hi", position: { at: "end" } } },
        ],
      },
      { text: "Done." },
    ]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [input("scripted-basic")]);
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type !== "tool-call") return;
      await deliverToolResult(run.runId, event.toolCallId, okInsert);
    });

    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
    expect(events.every((e) => e.runId === run.runId)).toBe(true);
    const types = events
      .map((e) => e.type)
      .filter((t, i, all) => t !== "text-delta" || all[i - 1] !== "text-delta");
    expect(types).toEqual(["run-start", "text-delta", "tool-call", "tool-result", "text-delta", "finish"]);
    const text = (messageIndex: number) =>
      events
        .filter((e): e is Extract<RunEvent, { type: "text-delta" }> => e.type === "text-delta")
        .filter((e) => e.messageId.endsWith(`:m${messageIndex}`))
        .map((e) => e.delta)
        .join("");
    expect(text(0)).toBe("Adding it now.");
    expect(text(1)).toBe("Done.");
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Done." });
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({ toolCallId: "s0.c1", ok: true });
    // Two model turns (10 + 5 each) and the planner's call (3 + 2), which answered "no plan".
    expect(await run.returnValue).toEqual({
      status: "done",
      summary: "Done.",
      usage: { inputTokens: 23, outputTokens: 12, cachedInputTokens: 0, cacheWriteTokens: 0 },
      toolCalls: 1,
      reply: "Adding it now.\n\nDone.",
    });
    expect(events.some((e) => e.type === "plan" || e.type === "step")).toBe(false);
    expect(model.calls).toEqual([0, 1]);
    // The tool call's deadline and the run's time limit were dropped when it finished.
    expect(armedDeadlines()).toBe(0);
  });

  it("signs a hook token that names the run, tool call, user and document", async () => {
    const model = registerScriptedModel("scripted-token", [
      { text: "Reading.", toolCalls: [{ toolCallId: "c9", toolName: "readDocument", input: {} }] },
      { text: "Ok." },
    ]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [
      input("scripted-token", { userId: "writer-7", documentId: "doc-3" }),
    ]);
    let claims: unknown;
    await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type !== "tool-call") return;
      const verified = await verifyHookToken(event.hookToken, hookTokenKey());
      claims = verified.ok ? verified.claims : verified;
      expect(event.deadline).toBeGreaterThan(Date.now());
      await deliverToolResult(run.runId, event.toolCallId, {
        ok: true,
        blocks: [],
        totalBlocks: 0,
        nextFromBlock: null,
      });
    });
    expect(claims).toMatchObject({
      runId: run.runId,
      toolCallId: "s0.c9",
      toolName: "readDocument",
      userId: "writer-7",
      documentId: "doc-3",
    });
  });

  it("ends with finish: cancelled when the writer stops the run while a tool call is pending", async () => {
    const model = registerScriptedModel("scripted-cancel", [
      { text: "Working.", toolCalls: [{ toolCallId: "c1", toolName: "readDocument", input: {} }] },
      { text: "Should never be said." },
    ]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [input("scripted-cancel")]);
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      // What Stop does in the process that runs the step (it also records the run as cancelled).
      if (event.type === "tool-call") abortRun(run.runId, "stopped by the writer");
    });
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "cancelled" });
    expect(events.some((e) => e.type === "tool-result")).toBe(false);
    expect(model.calls).toEqual([0]);
    expect(await run.returnValue).toMatchObject({ status: "cancelled" });
  });

  it("ends with error tool-timeout when the browser never answers", async () => {
    const model = registerScriptedModel("scripted-timeout", [
      { text: "Working.", toolCalls: [{ toolCallId: "c1", toolName: "readDocument", input: {} }] },
    ]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [
      input("scripted-timeout", {
        limits: { ...TEST_LIMITS, toolDeadlineMs: 1_000 },
      }),
    ]);
    const events = await collectEvents(run.getReadable<string>());
    expect(events.at(-1)).toMatchObject({ type: "error", code: "tool-timeout", recoverable: false });
  });

  it("stops at the turn limit with finish: limit, its last words, and a conversation to continue", async () => {
    const call = { toolCallId: "c", toolName: "readDocument", input: {} };
    const model = registerScriptedModel("scripted-limit", [{ text: "Again.", toolCalls: [call] }]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [
      input("scripted-limit", { limits: { ...TEST_LIMITS, maxTurnsPerStep: 2 } }),
    ]);
    let answered = 0;
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type !== "tool-call") return;
      answered++;
      await deliverToolResult(run.runId, event.toolCallId, emptyRead);
    });
    expect(answered).toBe(2);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      status: "limit",
      summary: "Stopped at the limit of 2 model turns.",
    });
    const outcome = await run.returnValue;
    // The prompt, two turns each with its call and result, and the last words.
    expect(outcome.conversation?.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("stops at the run's tool-call limit, says what is left, and Continue finishes the task", async () => {
    const limits = { ...TEST_LIMITS, maxToolCallsPerRun: 3 };
    const answer = (runId: string) => async (event: RunEvent) => {
      if (event.type === "tool-call") await deliverToolResult(runId, event.toolCallId, okInsert);
    };
    const first = await start(agentWorkflow, [input("offline", { prompt: "count to 5", limits })]);
    const firstEvents = await collectEvents(first.getReadable<string>(), answer(first.runId));
    expect(firstEvents.filter((e) => e.type === "tool-call")).toHaveLength(3);
    expect(firstEvents.at(-1)).toMatchObject({
      type: "finish",
      status: "limit",
      summary: "Stopped at the limit of 3 tool calls.",
    });
    const outcome = await first.returnValue;
    expect(outcome.reply).toContain("I added the numbers 1 to 3 of 5; 2 are left.");
    const conversation = outcome.conversation;
    if (!conversation) throw new Error("a run at its limit returns its conversation");

    const next = await start(agentWorkflow, [
      input("offline", { prompt: "Continue.", continues: { runId: first.runId, conversation } }),
    ]);
    const inserted: unknown[] = [];
    const nextEvents = await collectEvents(next.getReadable<string>(), async (event) => {
      if (event.type === "tool-call") inserted.push(event.input);
      await answer(next.runId)(event);
    });
    expect(inserted).toEqual(["4", "5"].map((markdown) => ({ markdown, position: { at: "end" } })));
    expect(nextEvents.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Counted to 5." });
    expect((await next.returnValue).conversation).toBeUndefined();
  });

  it("keeps nothing in the process for a run that ended", async () => {
    const run = await start(agentWorkflow, [input("offline", { prompt: "count to 1" })]);
    await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type === "tool-call") await deliverToolResult(run.runId, event.toolCallId, okInsert);
    });
    await run.returnValue;
    expect(trackedRuns()).toBe(0);
    expect(armedDeadlines()).toBe(0);
  });

  it("drives the offline model through the real loop: count to 3 makes three insert calls", async () => {
    const run = await start(agentWorkflow, [input("offline", { prompt: "count to 3" })]);
    const inserted: unknown[] = [];
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type !== "tool-call") return;
      inserted.push(event.input);
      await deliverToolResult(run.runId, event.toolCallId, okInsert);
    });
    expect(inserted).toEqual(["1", "2", "3"].map((markdown) => ({ markdown, position: { at: "end" } })));
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Counted to 3." });
  });
  it("saves its progress once per tool call (the claims mark the model turns) and never reads it back on a first attempt", async () => {
    const real = memoryAgentStore();
    const counted = { loads: 0, saves: [] as string[] };
    configureAgentStore({
      ...real,
      loadProgress: (...args) => {
        counted.loads++;
        return real.loadProgress(...args);
      },
      saveProgress: (runId, segment, progress) => {
        counted.saves.push((JSON.parse(progress.state) as { phase: string }).phase);
        return real.saveProgress(runId, segment, progress);
      },
    });
    cleanup.push(() => configureAgentStore(real));
    const run = await start(agentWorkflow, [input("offline", { prompt: "count to 3" })]);
    await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type === "tool-call") await deliverToolResult(run.runId, event.toolCallId, okInsert);
    });
    await run.returnValue;
    expect(counted.loads).toBe(0);
    // The first turn's mark, each call before it goes out, the end.
    expect(counted.saves).toEqual(["model", "tools", "tools", "tools", "done"]);
  });

  it("asks for the first turn while the planner decides, and streams it once the planner says no plan", async () => {
    // The planner answers only once the turn was asked for (or, without that, after a while, so
    // the test fails rather than hangs).
    let turnAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (turnAsked = resolve));
    let askedBeforePlanned = false;
    const unregister = registerModel(
      "early-turn",
      () =>
        new MockLanguageModelV4({
          doGenerate: async () => {
            askedBeforePlanned = await Promise.race([
              asked.then(() => true),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
            ]);
            return noPlanAnswer();
          },
          doStream: async () => {
            turnAsked();
            return textAnswer("Right away.");
          },
        }),
    );
    cleanup.push(unregister);
    const run = await start(agentWorkflow, [input("early-turn")]);
    const events = await collectEvents(run.getReadable<string>(), async () => undefined);
    expect(askedBeforePlanned).toBe(true);
    expect(
      events.filter((e) => e.type === "text-delta").map((e) => e.type === "text-delta" && e.delta),
    ).toEqual(["Right away."]);
    expect(await run.returnValue).toMatchObject({ status: "done", reply: "Right away." });
  });

  describe("the first step begun by the route that starts the run", () => {
    /** A model that counts the calls made of it and answers each with no plan, then `answer`. */
    const countingModel = (id: string, answer: string) => {
      const asked = { turns: 0, aborted: 0, plans: 0 };
      const unregister = registerModel(
        id,
        () =>
          new MockLanguageModelV4({
            doGenerate: async () => {
              asked.plans++;
              return noPlanAnswer();
            },
            doStream: async (options) => {
              asked.turns++;
              options.abortSignal?.addEventListener("abort", () => asked.aborted++);
              return textAnswer(answer);
            },
          }),
      );
      cleanup.push(unregister);
      return asked;
    };

    it.each([
      ["a first prompt", {}],
      [
        "a prompt with an earlier conversation and a selection",
        {
          messages: [
            { role: "user" as const, content: "hello" },
            { role: "assistant" as const, content: "Hi! What shall we write?" },
          ],
          selection: { text: "The selected words.", blockIds: ["b00000001"] },
        },
      ],
      [
        "a continued run",
        {
          continues: {
            runId: "wrun_earlier",
            conversation: [
              { role: "user" as const, content: "list three fruits" },
              {
                role: "assistant" as const,
                content: [
                  { type: "tool-call" as const, toolCallId: "s0.c1", toolName: "readDocument", input: {} },
                ],
              },
              {
                role: "tool" as const,
                content: [
                  {
                    type: "tool-result" as const,
                    toolCallId: "s0.c1",
                    toolName: "readDocument",
                    output: { type: "json" as const, value: emptyRead },
                  },
                ],
              },
            ],
          },
        },
      ],
    ])(
      "is taken over by the step for %s: its frames go out live at once and all become durable, nothing is asked twice",
      async (_, overrides) => {
        const asked = countingModel("begun", "Right away.");
        const runInput = input("begun", { ...overrides, earlyStart: true });
        const run = await start(agentWorkflow, [runInput]);
        const live: string[] = [];
        const unsubscribe = subscribeLive(run.runId, (chunk) => live.push(chunk));
        cleanup.push(unsubscribe);
        beginRunStart(run.runId, runInput);
        const readable = run.getReadable<string>();
        // The run's first words go out live (the route's work sends them, whether or not the step runs yet).
        await vi.waitUntil(() => live.join("").includes("Right away."));
        const events = await collectEvents(readable, async () => undefined);
        expect(await run.returnValue).toMatchObject({ status: "done", reply: "Right away." });
        expect(
          events.filter((e) => e.type === "text-delta").map((e) => e.type === "text-delta" && e.delta),
        ).toEqual(["Right away."]);
        // Every frame sent live is in the durable stream, under the same id.
        expect(events.map((e) => e.type)).toEqual(
          expect.arrayContaining(["run-start", "text-delta", "finish"]),
        );
        expect(asked).toEqual({ turns: 1, aborted: 0, plans: 1 });
      },
    );

    it("spares the run its read of a Stop from the store (every Stop reaches this process's signal)", async () => {
      const real = memoryAgentStore();
      const stopReads: string[] = [];
      configureAgentStore({
        ...real,
        isStopped: (runId) => {
          stopReads.push(runId);
          return real.isStopped(runId);
        },
      });
      cleanup.push(() => configureAgentStore(real));
      countingModel("begun-stop", "Right away.");
      const begunInput = input("begun-stop", { earlyStart: true });
      const begun = await start(agentWorkflow, [begunInput]);
      beginRunStart(begun.runId, begunInput);
      await collectEvents(begun.getReadable<string>(), async () => undefined);
      const asked = await start(agentWorkflow, [input("begun-stop")]);
      await collectEvents(asked.getReadable<string>(), async () => undefined);
      expect(stopReads).toEqual([asked.runId]);
    });

    it("is not begun once the step came first: the step did the work, nothing is asked or sent again", async () => {
      const asked = countingModel("begun-late", "Right away.");
      const runInput = input("begun-late", { earlyStart: true });
      const run = await start(agentWorkflow, [runInput]);
      await collectEvents(run.getReadable<string>(), async () => undefined);
      expect(await run.returnValue).toMatchObject({ status: "done", reply: "Right away." });
      const live: string[] = [];
      cleanup.push(subscribeLive(run.runId, (chunk) => live.push(chunk)));
      beginRunStart(run.runId, runInput);
      await new Promise((settle) => setTimeout(settle, 100));
      expect(live).toEqual([]);
      expect(asked).toEqual({ turns: 1, aborted: 0, plans: 1 });
    });

    it("is interrupted when given up before its step came: no word of it goes out, the run ends cancelled", async () => {
      countingModel("begun-abandoned", "Right away.");
      const runInput = input("begun-abandoned", { earlyStart: true });
      const run = await start(agentWorkflow, [runInput]);
      const live: string[] = [];
      cleanup.push(subscribeLive(run.runId, (chunk) => live.push(chunk)));
      beginRunStart(run.runId, runInput);
      abandonRunStart(run.runId, "the run ended before its first step");
      const events = await collectEvents(run.getReadable<string>(), async () => undefined);
      expect(await run.returnValue).toMatchObject({ status: "cancelled" });
      expect(events.filter((e) => e.type === "text-delta")).toEqual([]);
      expect(live.join("")).not.toContain("Right away.");
    });

    it("is not taken over by a step given other arguments: the step waits for it and goes on from its progress", async () => {
      const asked = countingModel("begun-other", "Right away.");
      const runInput = input("begun-other", { earlyStart: true });
      const run = await start(agentWorkflow, [runInput]);
      beginRunStart(run.runId, { ...runInput, prompt: "something else" });
      const events = await collectEvents(run.getReadable<string>(), async () => undefined);
      expect(await run.returnValue).toMatchObject({ status: "done", reply: "Right away." });
      // Never two executors: the begun work ran its turn, the step asked nothing again.
      expect(asked).toEqual({ turns: 1, aborted: 0, plans: 1 });
      expect(
        events.filter((e) => e.type === "text-delta").map((e) => e.type === "text-delta" && e.delta),
      ).toEqual(["Right away."]);
    });
  });

  it("runs several tool calls of one turn one at a time, and refuses those over the per-turn limit", async () => {
    const calls = ["c1", "c2", "c3"].map((toolCallId) => ({
      toolCallId,
      toolName: "readDocument",
      input: {},
    }));
    const model = registerScriptedModel("scripted-many", [
      { text: "Three reads.", toolCalls: calls },
      { text: "Read." },
    ]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [
      input("scripted-many", {
        limits: { ...TEST_LIMITS, maxToolCallsPerTurn: 2 },
      }),
    ]);
    const order: string[] = [];
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type !== "tool-call") return;
      order.push(event.toolCallId);
      // Only one call is in flight: the next is announced after this one is answered.
      expect(await deliverToolResult(run.runId, event.toolCallId, emptyRead)).toBe("delivered");
    });
    // The model's ids, made unique in the run by the turns step (segment 0) that announced them.
    expect(order).toEqual(["s0.c1", "s0.c2"]);
    expect(
      events.filter((e) => e.type === "tool-result").map((e) => e.type === "tool-result" && e.toolCallId),
    ).toEqual(["s0.c1", "s0.c2"]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Read." });
  });
  it("forwards a long insert's input as tool-input-delta events before the tool call", async () => {
    const run = await start(agentWorkflow, [
      input("offline", { prompt: 'append "A paragraph typed in piece by piece"' }),
    ]);
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type === "tool-call") await deliverToolResult(run.runId, event.toolCallId, okInsert);
    });
    const call = events.find((e) => e.type === "tool-call");
    if (call?.type !== "tool-call") throw new Error("no tool call");
    const deltas = events.filter((e) => e.type === "tool-input-delta");
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((e) => e.type === "tool-input-delta" && e.toolCallId === call.toolCallId)).toBe(true);
    expect(deltas.every((e) => e.id < call.id)).toBe(true);
    const streamed = deltas.map((e) => (e.type === "tool-input-delta" ? e.delta : "")).join("");
    expect(JSON.parse(streamed)).toEqual(call.input);
  });
});
