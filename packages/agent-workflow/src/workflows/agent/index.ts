import type { ToolResultPayload } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { createHook, getWorkflowMetadata } from "workflow";
import {
  cancelHookToken,
  RUN_TIMEOUT_REASON,
  type ToolDeadlinePayload,
  toolHookToken,
} from "../../hook-names.ts";
import { type PlanState, planStepContext, revisePlan } from "../../planning/plan-state.ts";
import { callLlm } from "./steps/call-llm.ts";
import { callPlanner } from "./steps/call-planner.ts";
import { emitEvents } from "./steps/emit-events.ts";
import { planEvent } from "./steps/plan-event.ts";
import { reflect } from "./steps/reflect.ts";
import { requestToolCall } from "./steps/request-tool-call.ts";
import type { AgentRunOutcome, AgentWorkflowInput, RequestedToolCall, RunEventBody } from "./types.ts";

type Usage = { inputTokens: number; outputTokens: number };

export type { AgentLimits, AgentRunOutcome, AgentWorkflowInput } from "./types.ts";

const CANCELLED = { kind: "cancelled" } as const;
const TIMED_OUT = { kind: "timeout" } as const;
const RUN_TIMED_OUT = { kind: "run-timeout" } as const;
const MAX_REPLY_CHARS = 20_000;

function summarizeResult(result: unknown): { ok: boolean; summary: string } {
  if (typeof result === "object" && result !== null && "ok" in result) {
    if (result.ok === false) {
      const message = "message" in result ? String(result.message) : "failed";
      return { ok: false, summary: message.slice(0, 200) };
    }
    return { ok: true, summary: "ok" };
  }
  return { ok: false, summary: "malformed result" };
}

function toolMessage(call: RequestedToolCall, result: unknown): ModelMessage {
  return {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "json", value: JSON.parse(JSON.stringify(result ?? null)) },
      },
    ],
  };
}

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
  const cancelHook = createHook<{ reason: string }>({ token: cancelHookToken(runId) });
  // One pending promise for the whole run (re-racing a fresh hook.then loses payloads). The
  // server resumes it for Stop and when the run time limit passes: no sleep() in this workflow
  // (on the local world each pending sleep re-delivers the run at its wake-up time).
  const cancelled = cancelHook.then((payload) =>
    payload?.reason === RUN_TIMEOUT_REASON ? RUN_TIMED_OUT : CANCELLED,
  );

  const context = input.selection?.text
    ? `\n\nThe writer's selection (blocks ${input.selection.blockIds.join(", ")}):\n${input.selection.text}`
    : "";
  const messages: ModelMessage[] = [
    ...input.messages.map((m): ModelMessage => ({ role: m.role, content: m.content })),
    { role: "user", content: input.prompt + context },
  ];

  const planner = await callPlanner(runId, input, messages);
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
    cancelHook.dispose();
    const reply = replies.join("\n\n").slice(0, MAX_REPLY_CHARS);
    return { ...outcome, usage: total, toolCalls: toolCallCount, reply };
  };
  const stoppedByWriter: AgentRunOutcome = { status: "cancelled", summary: "Stopped by the writer." };
  const runTimeout: AgentRunOutcome = {
    status: "timeout",
    summary: `Stopped after ${limits.runTimeoutMs / 1000} s (the run time limit).`,
  };
  const audience = {
    runId,
    userId: input.userId,
    documentId: input.documentId,
    deadlineMs: limits.toolDeadlineMs,
  };

  /**
   * Model turns until the model answers without tool calls: one plan step, or
   * the whole run without a plan. Returns an outcome when the run must end.
   */
  const work = async (system: string, stepUsage: Usage): Promise<AgentRunOutcome | undefined> => {
    for (;;) {
      if (turnIndex >= limits.maxSteps) {
        return { status: "timeout", summary: `Stopped after ${limits.maxSteps} steps (the step limit).` };
      }
      const pending = callLlm({
        runId,
        firstId: nextId,
        turn: turnIndex,
        modelId: input.modelId,
        system,
        messages,
        tools: planner.tools,
        leading,
        audience,
        timeoutMs: limits.modelStepTimeoutMs,
      });
      turnIndex++;
      const turn = await pending;
      nextId = turn.nextId;
      leading = [];
      addUsage(usage, turn.usage);
      addUsage(stepUsage, turn.usage);
      if (turn.status === "aborted")
        return turn.abortReason === RUN_TIMEOUT_REASON ? runTimeout : stoppedByWriter;
      if (turn.status === "error")
        return { status: "error", code: "model-error", summary: turn.errorMessage };
      messages.push(...turn.responseMessages);
      lastText = turn.text.trim();
      if (lastText) replies.push(lastText);
      if (turn.toolCalls.length === 0) return undefined;

      const calls = turn.toolCalls.slice(0, limits.maxToolCallsPerStep);
      for (const skipped of turn.toolCalls.slice(limits.maxToolCallsPerStep)) {
        const refusal = {
          ok: false,
          code: "too-many-tool-calls",
          message: `at most ${calls.length} tool calls per step`,
        };
        messages.push(toolMessage(skipped, refusal));
      }
      for (const [index, call] of calls.entries()) {
        const hook = createHook<ToolResultPayload | ToolDeadlinePayload>({
          token: toolHookToken(runId, call.toolCallId),
        });
        // The LLM step announced the turn's first call; later ones get their own step.
        if (index > 0) nextId = await requestToolCall({ firstId: nextId, call, audience });
        toolCallCount++;
        // The deadline is kept by the server: it resumes this hook with `timeout` when it passes.
        const outcome = await Promise.race([
          hook.then((payload) => ("timeout" in payload ? TIMED_OUT : { kind: "result" as const, payload })),
          cancelled,
        ]);
        hook.dispose();
        if (outcome.kind === "cancelled") return stoppedByWriter;
        if (outcome.kind === "run-timeout") return runTimeout;
        if (outcome.kind === "timeout") {
          return {
            status: "error",
            code: "tool-timeout",
            summary: `The browser did not answer ${call.toolName} within ${limits.toolDeadlineMs / 1000} s.`,
          };
        }
        // The callback route validated the payload with zod; only its pairing is checked here
        // (no zod in the workflow bundle: it is evaluated on every replay).
        const result = outcome.payload?.toolCallId === call.toolCallId ? outcome.payload.result : undefined;
        const { ok, summary } = summarizeResult(result);
        leading.push({ type: "tool-result", toolCallId: call.toolCallId, ok, summary });
        messages.push(
          toolMessage(call, result ?? { ok: false, code: "malformed-result", message: "no valid result" }),
        );
      }
    }
  };

  if (!plan) {
    const ended = await work(planner.system, { inputTokens: 0, outputTokens: 0 });
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
      return finish(reflected.abortReason === RUN_TIMEOUT_REASON ? runTimeout : stoppedByWriter);
    }
    addUsage(usage, reflected.usage);
    const decision = reflected.reflection;
    if (decision?.decision === "done") break;
    if (decision?.decision === "adjust" && decision.steps && replans < limits.maxReplans) {
      replans++;
      plan = revisePlan(plan, index, decision.steps, limits.maxSteps);
      leading.push(planEvent(plan));
    }
  }
  return finish({ status: "done", summary: lastText || undefined });
}
