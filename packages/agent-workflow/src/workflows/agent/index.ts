import type { ToolResultPayload } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { createHook, getWorkflowMetadata, sleep } from "workflow";
import { cancelHookToken, toolHookToken } from "../../hook-names.ts";
import { callLlm } from "./steps/call-llm.ts";
import { callPlanner } from "./steps/call-planner.ts";
import { decideNext } from "./steps/decide-next.ts";
import { emitEvents } from "./steps/emit-events.ts";
import { requestToolCall } from "./steps/request-tool-call.ts";
import type { AgentRunOutcome, AgentWorkflowInput, RequestedToolCall, RunEventBody } from "./types.ts";

export type { AgentLimits, AgentRunOutcome, AgentWorkflowInput } from "./types.ts";

const CANCELLED = { kind: "cancelled" } as const;
const TIMED_OUT = { kind: "timeout" } as const;

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
 */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunOutcome> {
  "use workflow";
  const { workflowRunId: runId } = getWorkflowMetadata();
  const cancelHook = createHook<{ reason: string }>({ token: cancelHookToken(runId) });
  // One pending promise for the whole run (re-racing a fresh hook.then loses payloads).
  const cancelled = cancelHook.then(() => CANCELLED);

  const plan = await callPlanner(runId, input);
  let nextId = plan.nextId;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const finish = async (outcome: AgentRunOutcome, leading: RunEventBody[] = []): Promise<AgentRunOutcome> => {
    const last: RunEventBody =
      outcome.status === "error"
        ? {
            type: "error",
            code: outcome.code ?? "internal",
            message: outcome.summary ?? "failed",
            recoverable: false,
          }
        : { type: "finish", status: outcome.status, summary: outcome.summary };
    nextId = await emitEvents(runId, nextId, [...leading, last], true);
    cancelHook.dispose();
    return { ...outcome, usage: { ...usage } };
  };

  const context = input.selection?.text
    ? `\n\nThe writer's selection (blocks ${input.selection.blockIds.join(", ")}):\n${input.selection.text}`
    : "";
  const messages: ModelMessage[] = [
    ...input.messages.map((m): ModelMessage => ({ role: m.role, content: m.content })),
    { role: "user", content: input.prompt + context },
  ];
  let leading: RunEventBody[] = [];
  const audience = {
    runId,
    userId: input.userId,
    documentId: input.documentId,
    deadlineMs: input.limits.toolDeadlineMs,
  };

  for (let turnIndex = 0; ; turnIndex++) {
    const turn = await callLlm({
      runId,
      firstId: nextId,
      turn: turnIndex,
      modelId: input.modelId,
      system: plan.system,
      messages,
      tools: plan.tools,
      leading,
      audience,
    });
    nextId = turn.nextId;
    usage.inputTokens += turn.usage.inputTokens;
    usage.outputTokens += turn.usage.outputTokens;
    leading = [];
    if (turn.status === "aborted") return finish({ status: "cancelled", summary: "Stopped by the writer." });
    if (turn.status === "error")
      return finish({ status: "error", code: "model-error", summary: turn.errorMessage });
    messages.push(...turn.responseMessages);

    const calls = turn.toolCalls.slice(0, input.limits.maxToolCallsPerStep);
    for (const skipped of turn.toolCalls.slice(input.limits.maxToolCallsPerStep)) {
      const refusal = {
        ok: false,
        code: "too-many-tool-calls",
        message: `at most ${calls.length} tool calls per step`,
      };
      messages.push(toolMessage(skipped, refusal));
    }
    for (const [index, call] of calls.entries()) {
      const hook = createHook<ToolResultPayload>({ token: toolHookToken(runId, call.toolCallId) });
      // The LLM step announced the turn's first call; later ones get their own step.
      if (index > 0) nextId = await requestToolCall({ firstId: nextId, call, audience });
      const outcome = await Promise.race([
        hook.then((payload) => ({ kind: "result" as const, payload })),
        cancelled,
        sleep(input.limits.toolDeadlineMs).then(() => TIMED_OUT),
      ]);
      hook.dispose();
      if (outcome.kind === "cancelled")
        return finish({ status: "cancelled", summary: "Stopped by the writer." });
      if (outcome.kind === "timeout") {
        return finish({
          status: "error",
          code: "tool-timeout",
          summary: `The browser did not answer ${call.toolName} within ${input.limits.toolDeadlineMs / 1000} s.`,
        });
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

    const decision = decideNext({ turn, turnIndex, maxSteps: input.limits.maxSteps });
    if (decision.action === "summarize") {
      return finish({ status: decision.status, summary: decision.summary || undefined }, leading);
    }
  }
}
