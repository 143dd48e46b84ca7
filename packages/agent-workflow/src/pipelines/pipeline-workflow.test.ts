import { type PipelineDefinition, pipelineDefinitionSchema, type RunEvent } from "@coauthor/types";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { start } from "workflow/api";
import { configureDocumentReader } from "../document-reader.ts";
import { registerModel } from "../models/registry.ts";
import { deliverToolResult } from "../tool-results.ts";
import { agentWorkflow } from "../workflows/agent/index.ts";
import { collectEvents, registerScriptedModel, TEST_LIMITS } from "../workflows/agent/test-harness.ts";
import type { AgentWorkflowInput } from "../workflows/agent/types.ts";
import { parsePipeline } from "./definition.ts";
import { backoff } from "./interpreter.ts";
import { BUILT_IN_RECIPES } from "./recipes.ts";

const recipe = (id: string): PipelineDefinition => {
  const parsed = parsePipeline(BUILT_IN_RECIPES.find((r) => r.id === id)?.yaml ?? "");
  if (!parsed.ok) throw new Error(`recipe ${id}: ${JSON.stringify(parsed.issues)}`);
  return parsed.definition;
};

const input = (
  definition: PipelineDefinition,
  overrides: Partial<AgentWorkflowInput> = {},
): AgentWorkflowInput => ({
  userId: "u1",
  documentId: "d1",
  prompt: 'append "Draft."',
  messages: [],
  modelId: "offline",
  limits: TEST_LIMITS,
  pipeline: { recipeId: "test", definition },
  ...overrides,
});

const answers: Record<string, unknown> = {
  insertBlocks: { ok: true, blockIds: ["b00000001"] },
  readDocument: {
    ok: true,
    blocks: [{ id: "b00000001", type: "paragraph", markdown: "Draft." }],
    totalBlocks: 1,
    nextFromBlock: null,
  },
};

/** Runs a pipeline, answering its tool calls as the browser would; the events and tool calls made. */
async function runAnswering(run: Awaited<ReturnType<typeof start>>) {
  const tools: string[] = [];
  const events = await collectEvents(run.getReadable<string>(), async (event) => {
    if (event.type !== "tool-call") return;
    tools.push(event.toolName);
    await deliverToolResult(
      run.runId,
      event.toolCallId,
      answers[event.toolName] ?? { ok: true, blockIds: [] },
    );
  });
  return { events, tools };
}

/** The pipeline-step events as `path:status` (with the round or the case taken). */
const trail = (events: RunEvent[]) =>
  events.flatMap((event) =>
    event.type === "pipeline-step"
      ? [
          `${event.path}:${event.status}${event.iteration ? `#${event.iteration}` : ""}${event.taken !== undefined ? `@${event.taken}` : ""}`,
        ]
      : [],
  );
const outputOf = (events: RunEvent[], path: string) =>
  events
    .filter((event) => event.type === "pipeline-step" && event.path === path && event.status === "done")
    .map((event) => (event.type === "pipeline-step" ? event.output : undefined));

const define = (yaml: string): PipelineDefinition => {
  const parsed = parsePipeline(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.definition;
};

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup) fn();
  cleanup = [];
});
beforeAll(() => configureDocumentReader(async () => "# Notes\n\nDraft."));

describe("pipelines", () => {
  it("Review and revise: two rounds, the critic approves on the second, edits land each round", async () => {
    const run = await start(agentWorkflow, [input(recipe("review-and-revise"))]);
    const { events, tools } = await runAnswering(run);
    expect(events.find((event) => event.type === "pipeline")).toMatchObject({
      name: "Review and revise",
      nodes: [
        { path: "0", kind: "loop", stepId: "rounds" },
        { path: "0.loop.0", kind: "agent", stepId: "revise", agent: "writer", parent: "0" },
        { path: "0.loop.1", kind: "agent", stepId: "review", agent: "critic", parent: "0" },
      ],
    });
    expect(tools).toEqual(["insertBlocks", "readDocument", "insertBlocks", "readDocument"]);
    expect(trail(events)).toEqual([
      "0:running",
      "0:running#1",
      "0.loop.0:running",
      "0.loop.0:done",
      "0.loop.1:running",
      "0.loop.1:done",
      "0:running#2",
      "0.loop.0:running",
      "0.loop.0:done",
      "0.loop.1:running",
      "0.loop.1:done",
      "0:done",
    ]);
    expect(outputOf(events, "0.loop.1").map((output) => (output as { approved: boolean }).approved)).toEqual([
      false,
      true,
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  });

  it("runs a planning agent inside its step: the tree, its plan and plan steps, then the next agent, ids in order", async () => {
    const model = registerScriptedModel(
      "pipeline-planner",
      [{ text: "Outlined." }, { text: "Checked." }, { text: "Finished." }],
      {
        plan: JSON.stringify({
          goal: "Outline",
          steps: [{ description: "Outline" }, { description: "Check" }],
        }),
      },
    );
    cleanup.push(model.unregister);
    const definition = define(
      "version: 1\nname: Plan then finish\nagents:\n  - id: planner\n    instructions: Plan the work.\n    plan: true\n  - id: finisher\n    instructions: Finish.\n    tools: none\nsteps:\n  - agent: planner\n  - agent: finisher\n",
    );
    const run = await start(agentWorkflow, [input(definition, { modelId: "pipeline-planner" })]);
    const { events } = await runAnswering(run);
    expect(events.map((event) => event.type)).toEqual([
      "run-start",
      "pipeline",
      "pipeline-step",
      "plan",
      "step",
      "text-delta",
      "step",
      "step",
      "text-delta",
      "step",
      "pipeline-step",
      "pipeline-step",
      "text-delta",
      "pipeline-step",
      "finish",
    ]);
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index));
    expect(trail(events)).toEqual(["0:running", "0:done", "1:running", "1:done"]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done", summary: "Finished." });
  });

  it("Translate with a check: a failed check takes the branch and translates again", async () => {
    const run = await start(agentWorkflow, [input(recipe("translate-with-check"))]);
    const { events, tools } = await runAnswering(run);
    expect(trail(events)).toContain("2:running@0");
    expect(trail(events)).toContain("2.branch.0.steps.0:done");
    expect(tools.filter((tool) => tool === "insertBlocks")).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  });

  it("Parallel review: three critics on one snapshot at once, outputs keyed by step, then one editor", async () => {
    const run = await start(agentWorkflow, [input(recipe("parallel-review"))]);
    const { events, tools } = await runAnswering(run);
    for (const path of ["0.parallel.0", "0.parallel.1", "0.parallel.2"]) {
      expect(outputOf(events, path)).toEqual([{ notes: expect.stringContaining("Round 1") }]);
    }
    // The critics made no tool call (they read the snapshot); the editor wrote.
    expect(tools).toEqual(["insertBlocks"]);
    expect(trail(events).slice(-2)).toEqual(["1:running", "1:done"]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });
  });

  const scoreLoop = (onExhausted: "continue" | "fail") =>
    define(`version: 1
name: Scores
agents:
  - id: scorer
    instructions: Score the document.
    tools: none
    output: { type: object, properties: { score: { type: number } }, required: [score] }
steps:
  - loop:
      - agent: scorer
    until: steps.scorer.score > 5.0
    maxIterations: 3
    onExhausted: ${onExhausted}
`);

  it("runs a loop to its bound: exactly three rounds, then goes on or fails as the definition says", async () => {
    const going = await runAnswering(await start(agentWorkflow, [input(scoreLoop("continue"))]));
    expect(trail(going.events).filter((step) => step.startsWith("0:running#"))).toEqual([
      "0:running#1",
      "0:running#2",
      "0:running#3",
    ]);
    expect(going.events.at(-1)).toMatchObject({ type: "finish", status: "done" });
    const failing = await runAnswering(await start(agentWorkflow, [input(scoreLoop("fail"))]));
    expect(failing.events.at(-1)).toMatchObject({
      type: "error",
      code: "step-failed",
      message: 'the loop ran 3 rounds and "steps.scorer.score > 5.0" is still false',
    });
  });

  /** A model whose first `failures` calls fail (a provider error), then answers "Fine." */
  const flaky = (id: string, failures: number) => {
    let calls = 0;
    return registerModel(
      id,
      () =>
        new MockLanguageModelV4({
          doStream: async () => {
            calls++;
            if (calls <= failures) throw new Error("provider connection broke");
            return {
              stream: new ReadableStream({
                start(controller) {
                  controller.enqueue({ type: "text-start", id: "t" });
                  controller.enqueue({ type: "text-delta", id: "t", delta: "Fine." });
                  controller.enqueue({ type: "text-end", id: "t" });
                  controller.enqueue({
                    type: "finish",
                    finishReason: { unified: "stop", raw: undefined },
                    usage: {
                      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                      outputTokens: { total: 1, text: 1, reasoning: 0 },
                    },
                  });
                  controller.close();
                },
              }),
            };
          },
        }),
    );
  };
  const retried = (model: string, retry: string) =>
    define(`version: 1
name: Retries
agents:
  - id: worker
    model: ${model}
    instructions: Work.
    tools: none
steps:
  - agent: worker
    retry: ${retry}
`);

  it("retries a failed step with its backoff, and only on the codes it names", async () => {
    cleanup.push(flaky("flaky-retry", 2));
    const run = await start(agentWorkflow, [
      input(retried("flaky-retry", "{ maxAttempts: 3, backoff: fixed, delayMs: 0 }")),
    ]);
    const { events } = await runAnswering(run);
    expect(trail(events)).toEqual([
      "0:running",
      "0:retrying",
      "0:running",
      "0:retrying",
      "0:running",
      "0:done",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", status: "done" });

    cleanup.push(flaky("flaky-filtered", 1));
    const filtered = await runAnswering(
      await start(agentWorkflow, [
        input(retried("flaky-filtered", "{ maxAttempts: 3, delayMs: 0, on: [tool-timeout] }")),
      ]),
    );
    expect(trail(filtered.events)).toEqual(["0:running", "0:failed"]);
    expect(filtered.events.at(-1)).toMatchObject({ type: "error", code: "model-error" });
    expect(backoff({ maxAttempts: 4, backoff: "exponential", delayMs: 100 }, 1)).toBe(100);
    expect(backoff({ maxAttempts: 4, backoff: "exponential", delayMs: 100 }, 3)).toBe(400);
    expect(backoff({ maxAttempts: 4, backoff: "fixed", delayMs: 100 }, 3)).toBe(100);
  });

  it("stops at the pipeline's budget before the next model call", async () => {
    const definition = pipelineDefinitionSchema.parse({
      ...recipe("review-and-revise"),
      budget: { modelTurns: 3 },
    });
    const { events } = await runAnswering(await start(agentWorkflow, [input(definition)]));
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      status: "limit",
      summary: expect.stringMatching(/budget|limit/),
    });
  });
});
