import type { ModelMessage } from "ai";
import { getWorkflowMetadata } from "workflow";
import { runPipeline } from "../../pipelines/interpreter.ts";
import { type PlanState, planStepContext, revisePlan } from "../../planning/plan-state.ts";
import { continuableConversation, interruptedOutcome } from "../../run-outcomes.ts";
import { emitEvents } from "./steps/emit-events.ts";
import { planEvent } from "./steps/plan-event.ts";
import { reflect } from "./steps/reflect.ts";
import { runTurns, startRun, type TurnsResult } from "./steps/run-turns.ts";
import type { AgentRunOutcome, AgentWorkflowInput, RunEventBody } from "./types.ts";

type Usage = { inputTokens: number; outputTokens: number };

export type { AgentLimits, AgentRunOutcome, AgentWorkflowInput } from "./types.ts";

const MAX_REPLY_CHARS = 20_000;

/**
 * The agent run. Workflow context: deterministic orchestration only — every
 * I/O (model, signing, stream writes) happens in a step.
 *
 * Plan → execute → reflect: the planner step may return a plan (the model
 * decides; simple requests get none). With a plan, each step runs model turns
 * until the model answers without tool calls, then a reflection decides to
 * continue, adjust the remaining steps (at most `maxReplans` times) or stop.
 * Without a plan, model turns run until the model answers without tools.
 */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunOutcome> {
  "use workflow";
  const { workflowRunId: runId } = getWorkflowMetadata();
  const { limits } = input;
  // No hook for Stop or the run time limit: a resumed hook replays the workflow, and a replay
  // queues the running step again. Both reach the running step directly (its signal in this
  // process, the stored run status from any instance, its own copy of the deadline).

  const context = input.selection?.text
    ? `\n\nThe writer's selection (blocks ${input.selection.blockIds.join(", ")}):\n${input.selection.text}`
    : "";
  // A continued run picks up the conversation of the run it continues, tool calls included.
  const earlier: ModelMessage[] =
    input.continues?.conversation ??
    input.messages.map((m): ModelMessage => ({ role: m.role, content: m.content }));
  const messages: ModelMessage[] = [...earlier, { role: "user", content: input.prompt + context }];

  const audience = {
    runId,
    userId: input.userId,
    documentId: input.documentId,
    deadlineMs: limits.toolDeadlineMs,
  };
  if (input.pipeline) {
    return runPipeline({ runId, input, definition: input.pipeline.definition, history: earlier, audience });
  }
  // The first step plans and, without a plan, does the whole run (the common case).
  const started = await startRun({ runId, input, messages, audience });
  const { planner } = started;
  let nextId = planner.nextId;
  let plan: PlanState | null = planner.plan;
  const usage: Usage = { ...planner.usage };
  const addUsage = (to: Usage, from: Usage) => {
    to.inputTokens += from.inputTokens;
    to.outputTokens += from.outputTokens;
  };
  let toolCallCount = 0;
  let turnIndex = 0;
  let leading: RunEventBody[] = [];
  let lastText = "";
  // What the assistant said over the run, for the stored conversation.
  const replies: string[] = [];

  const finish = async (outcome: AgentRunOutcome): Promise<AgentRunOutcome> => {
    const total = { ...usage };
    const last: RunEventBody =
      outcome.status === "error"
        ? {
            type: "error",
            code: outcome.code ?? "internal",
            message: outcome.summary ?? "failed",
            recoverable: false,
          }
        : { type: "finish", status: outcome.status, summary: outcome.summary, usage: total };
    nextId = await emitEvents(runId, nextId, [...leading, last], true);
    const reply = replies.join("\n\n").slice(0, MAX_REPLY_CHARS);
    const conversation = continuableConversation(outcome.status, messages);
    return {
      ...outcome,
      usage: total,
      toolCalls: toolCallCount,
      reply,
      ...(conversation ? { conversation } : {}),
    };
  };

  // Segment 0 is the first step's; each plan step's turns are a segment of their own.
  let segment = 1;
  /** Adds what a turns step did to the run; returns an outcome when the run must end. */
  const apply = (done: TurnsResult, stepUsage: Usage): AgentRunOutcome | undefined => {
    leading = [];
    nextId = done.nextId;
    turnIndex = done.turnIndex;
    toolCallCount += done.toolCalls;
    addUsage(usage, done.usage);
    addUsage(stepUsage, done.usage);
    messages.push(...done.messages);
    replies.push(...done.replies);
    if (done.lastText) lastText = done.lastText;
    return done.end;
  };
  /** Model turns of one plan step, until the model answers without tool calls. */
  const work = async (system: string, stepUsage: Usage): Promise<AgentRunOutcome | undefined> =>
    apply(
      await runTurns({
        runId,
        segment: segment++,
        firstId: nextId,
        turnIndex,
        toolCallsBefore: toolCallCount,
        modelId: input.modelId,
        system,
        messages,
        tools: planner.tools,
        leading,
        audience,
        limits,
        runDeadline: planner.runDeadline,
      }),
      stepUsage,
    );

  if (!plan) {
    const ended = started.turns ? apply(started.turns, { inputTokens: 0, outputTokens: 0 }) : undefined;
    return finish(ended ?? { status: "done", summary: lastText || undefined });
  }

  let replans = 0;
  for (let index = 0; index < plan.steps.length; index++) {
    const step = plan.steps[index];
    if (!step) break;
    step.status = "running";
    leading.push({ type: "step", stepId: step.id, status: "running", description: step.description });
    const stepUsage: Usage = { inputTokens: 0, outputTokens: 0 };
    const ended = await work(`${planner.system}\n\n${planStepContext(plan, index)}`, stepUsage);
    step.status = ended ? "failed" : "done";
    leading.push({ type: "step", stepId: step.id, status: step.status, usage: stepUsage });
    if (ended) return finish(ended);

    const reflected = await reflect({
      runId,
      modelId: input.modelId,
      system: planner.system,
      messages,
      tools: planner.tools,
      plan,
      index,
      timeoutMs: limits.modelStepTimeoutMs,
    });
    if (reflected.abortReason) {
      return finish(interruptedOutcome(reflected.abortReason, limits.runTimeoutMs));
    }
    addUsage(usage, reflected.usage);
    const decision = reflected.reflection;
    if (decision?.decision === "done") break;
    if (decision?.decision === "adjust" && decision.steps && replans < limits.maxReplans) {
      replans++;
      plan = revisePlan(plan, index, decision.steps, limits.maxPlanSteps);
      leading.push(planEvent(plan));
    }
  }
  return finish({ status: "done", summary: lastText || undefined });
}
