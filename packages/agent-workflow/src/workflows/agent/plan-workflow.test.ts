import type { RunEvent } from "@coauthor/types";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { registerModel } from "../../models/registry.ts";
import { deliverToolResult } from "../../tool-results.ts";
import { agentWorkflow } from "./index.ts";
import {
  collectEvents,
  noPlanAnswer,
  registerScriptedModel,
  type ScriptTurn,
  TEST_LIMITS,
} from "./test-harness.ts";
import type { AgentWorkflowInput } from "./types.ts";

const LIMITS = TEST_LIMITS;
const input = (modelId: string, overrides: Partial<AgentWorkflowInput> = {}): AgentWorkflowInput => ({
  userId: "u1",
  documentId: "d1",
  prompt: "do a multi-step task",
  messages: [],
  modelId,
  limits: LIMITS,
  ...overrides,
});
const emptyRead = { ok: true, blocks: [], totalBlocks: 0, nextFromBlock: null };
const read = (id: string): ScriptTurn => ({
  text: "Reading.",
  toolCalls: [{ toolCallId: id, toolName: "readDocument", input: {} }],
});
const plan = (...steps: string[]) =>
  JSON.stringify({ goal: "Test goal", steps: steps.map((description) => ({ description, tools: [] })) });

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup) fn();
  cleanup = [];
});

async function runAnswering(run: Awaited<ReturnType<typeof start>>): Promise<RunEvent[]> {
  return collectEvents(run.getReadable<string>(), async (event) => {
    if (event.type === "tool-call") await deliverToolResult(run.runId, event.toolCallId, emptyRead);
  });
}

const stepTrail = (events: RunEvent[]) =>
  events.filter((e) => e.type === "step").map((e) => (e.type === "step" ? `${e.stepId}:${e.status}` : ""));
const plans = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === "plan" ? [e.steps.map((s) => `${s.id}:${s.description}`)] : []));

describe("plan, execute, reflect", () => {
  it("streams the plan, runs it step by step with the current step in the prompt, and finishes", async () => {
    const model = registerScriptedModel(
      "plan-basic",
      [read("c1"), { text: "Read it." }, read("c2"), { text: "All done." }],
      { plan: plan("Read the document", "Check it again") },
    );
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [input("plan-basic")]);
    const events = await runAnswering(run);

    expect(events[1]).toMatchObject({
      type: "plan",
      goal: "Test goal",
      steps: [
        { id: "s1", description: "Read the document", status: "pending" },
        { id: "s2", description: "Check it again", status: "pending" },
      ],
    });
    expect(stepTrail(events)).toEqual(["s1:running", "s1:done", "s2:running", "s2:done"]);
    expect(model.systems[0]).toContain("Current plan step: 1. Read the document");
    expect(model.systems[2]).toContain("Current plan step: 2. Check it again");
    const done = events.find((e) => e.type === "step" && e.status === "done");
    expect(done).toMatchObject({ usage: { inputTokens: 20, outputTokens: 10 } });
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "All done." });
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
  });

  it("a simple request (the model proposes no steps) runs without plan or step events", async () => {
    const model = registerScriptedModel("plan-none", [read("c1"), { text: "Done." }]);
    cleanup.push(model.unregister);
    const events = await runAnswering(await start(agentWorkflow, [input("plan-none")]));
    expect(events.some((e) => e.type === "plan" || e.type === "step")).toBe(false);
    expect(model.systems[0]).not.toContain("Current plan step");
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Done." });
  });

  it("an unparseable plan falls back to working without one", async () => {
    const model = registerScriptedModel("plan-garbage", [read("c1"), { text: "Done anyway." }], {
      plan: "Sure! Step one: read. Step two: ???",
    });
    cleanup.push(model.unregister);
    const events = await runAnswering(await start(agentWorkflow, [input("plan-garbage")]));
    expect(events.some((e) => e.type === "plan")).toBe(false);
    expect(events.filter((e) => e.type === "tool-result")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Done anyway." });
  });

  it("a failed reflection is skipped: the plan goes on", async () => {
    const model = registerScriptedModel("plan-bad-reflection", [{ text: "One." }, { text: "Two." }], {
      plan: plan("First", "Second"),
      reflections: ["{not json", '{"decision":"continue"}'],
    });
    cleanup.push(model.unregister);
    const events = await runAnswering(await start(agentWorkflow, [input("plan-bad-reflection")]));
    expect(stepTrail(events)).toEqual(["s1:running", "s1:done", "s2:running", "s2:done"]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Two." });
  });

  it("a reflection that says done ends the run before the remaining steps", async () => {
    const model = registerScriptedModel("plan-done-early", [{ text: "Did everything." }], {
      plan: plan("First", "Second", "Third"),
      reflections: ['{"decision":"done"}'],
    });
    cleanup.push(model.unregister);
    const events = await runAnswering(await start(agentWorkflow, [input("plan-done-early")]));
    expect(stepTrail(events)).toEqual(["s1:running", "s1:done"]);
    expect(model.calls).toEqual([0]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Did everything." });
  });

  it("adjusts the plan after a reflection, at most maxReplans times", async () => {
    const adjust = (description: string) =>
      JSON.stringify({
        decision: "adjust",
        reason: `${description} is needed`,
        steps: [{ description, tools: [], successCriteria: `${description} holds`, dependsOn: [1] }],
      });
    const model = registerScriptedModel("plan-adjust", [{ text: "Step finished." }], {
      plan: plan("Original"),
      reflections: [adjust("Revision one"), adjust("Revision two"), adjust("Revision three")],
    });
    cleanup.push(model.unregister);
    const events = await runAnswering(await start(agentWorkflow, [input("plan-adjust")]));
    expect(plans(events)).toEqual([
      ["s1:Original"],
      ["s1:Original", "s2:Revision one"],
      ["s1:Original", "s2:Revision one", "s3:Revision two"],
    ]);
    const revised = events.filter((e) => e.type === "plan")[1];
    // The revision says why, and its new step what it must achieve and what it needs.
    expect(revised).toMatchObject({
      reason: "Revision one is needed",
      steps: [
        { status: "done" },
        { status: "pending", successCriteria: "Revision one holds", dependsOn: ["s1"] },
      ],
    });
    // The third adjustment is over the limit: the run ends after s3.
    expect(stepTrail(events)).toEqual([
      "s1:running",
      "s1:done",
      "s2:running",
      "s2:done",
      "s3:running",
      "s3:done",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  });

  it("ends with finish: timeout when the whole-run time limit passes while a tool call waits", async () => {
    const model = registerScriptedModel("plan-run-timeout", [read("c1")]);
    cleanup.push(model.unregister);
    const run = await start(agentWorkflow, [
      input("plan-run-timeout", { limits: { ...LIMITS, runTimeoutMs: 1_500 } }),
    ]);
    const events = await collectEvents(run.getReadable<string>());
    expect(events.some((e) => e.type === "tool-call")).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      status: "timeout",
      summary: expect.stringContaining("run time limit"),
    });
    expect(await run.returnValue).toMatchObject({ status: "timeout", toolCalls: 1 });
  });

  it("a plan step that reaches the turn limit is marked failed and the run ends at its limit", async () => {
    const model = registerScriptedModel("plan-step-limit", [read("c")], { plan: plan("Loop forever") });
    cleanup.push(model.unregister);
    const events = await runAnswering(
      await start(agentWorkflow, [input("plan-step-limit", { limits: { ...LIMITS, maxTurnsPerStep: 2 } })]),
    );
    expect(stepTrail(events)).toEqual(["s1:running", "s1:failed"]);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      status: "limit",
      summary: "Stopped at the limit of 2 model turns.",
    });
  });

  it("the offline model plans a summary: read, then write, with live step events", async () => {
    const run = await start(agentWorkflow, [input("offline", { prompt: "summarize the document" })]);
    const tools: string[] = [];
    const events = await collectEvents(run.getReadable<string>(), async (event) => {
      if (event.type !== "tool-call") return;
      tools.push(event.toolName);
      const result =
        event.toolName === "readDocument"
          ? {
              ok: true,
              blocks: [{ id: "b1", type: "paragraph", markdown: "Cats sleep a lot. They purr." }],
              totalBlocks: 1,
              nextFromBlock: null,
            }
          : { ok: true, blockIds: ["b2"] };
      await deliverToolResult(run.runId, event.toolCallId, result);
    });
    expect(plans(events)).toEqual([["s1:Read the document", "s2:Write the summary at the end"]]);
    expect(tools).toEqual(["readDocument", "insertBlocks"]);
    expect(stepTrail(events)).toEqual(["s1:running", "s1:done", "s2:running", "s2:done"]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  });

  it("ends with error model-timeout when a model step passes its time limit", async () => {
    // A model that starts streaming and then never says another word (until aborted).
    cleanup.push(
      registerModel(
        "hanging",
        () =>
          new MockLanguageModelV4({
            doGenerate: async () => noPlanAnswer(),
            doStream: async (options) => ({
              stream: new ReadableStream({
                start(controller) {
                  controller.enqueue({ type: "stream-start", warnings: [] });
                  controller.enqueue({ type: "text-start", id: "t" });
                  controller.enqueue({ type: "text-delta", id: "t", delta: "Thinking" });
                  options.abortSignal?.addEventListener("abort", () =>
                    controller.error(options.abortSignal?.reason),
                  );
                },
              }),
            }),
          }),
      ),
    );
    const run = await start(agentWorkflow, [
      input("hanging", { limits: { ...LIMITS, modelStepTimeoutMs: 1_000 } }),
    ]);
    const events = await collectEvents(run.getReadable<string>());
    expect(events.at(-1)).toMatchObject({
      type: "error",
      code: "model-timeout",
      message: expect.stringContaining("timed out after 1000 ms"),
      recoverable: false,
    });
  });
});
