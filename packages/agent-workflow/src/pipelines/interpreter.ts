import type { PipelineAgent, PipelineDefinition, PipelineStep, Retry } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { sleep } from "workflow";
import { PIPELINE_AGENT_MARKER } from "../models/prompt-markers.ts";
import { emitEvents } from "../workflows/agent/steps/emit-events.ts";
import { runTurns } from "../workflows/agent/steps/run-turns.ts";
import type { ToolCallAudience } from "../workflows/agent/steps/tool-call-event.ts";
import type { AgentRunOutcome, AgentWorkflowInput, RunEventBody } from "../workflows/agent/types.ts";
import { evaluateCondition } from "./conditions.ts";
import {
  agentOutput,
  type BranchResult,
  documentSnapshot,
  parallelAgent,
  startPipeline,
} from "./pipeline-steps.ts";
import { stepId } from "./steps.ts";

// Runs a pipeline (workflow context: deterministic orchestration only; every I/O is a step). The
// definition is part of the run's input, so a replay never reads it again. Each agent runs in an
// isolated context: its instructions, the outputs of the steps it names as inputs and the
// writer's prompt — never another agent's conversation; it reaches the document through tools.

type Usage = { inputTokens: number; outputTokens: number };

/** Why a step did not complete: a failure a retry may cure, or the end of the whole run. */
type StepEnd = { failure: { code: string; message: string } } | { end: AgentRunOutcome };

const MAX_REPLY_CHARS = 20_000;

/** What an agent step left for later steps: its declared output, else its last words. */
interface StepResult {
  output?: Record<string, unknown>;
  text: string;
}

export async function runPipeline(args: {
  runId: string;
  input: AgentWorkflowInput;
  definition: PipelineDefinition;
  /** The writer's earlier conversation (for agents with `context: conversation`). */
  history: ModelMessage[];
  audience: ToolCallAudience;
}): Promise<AgentRunOutcome> {
  const { runId, input, definition, audience } = args;
  const { limits } = input;
  const agents = new Map(definition.agents.map((agent) => [agent.id, agent]));
  const start = await startPipeline({ runId, input, definition });
  const budget = definition.budget;
  let nextId = start.nextId;
  let turnIndex = 0;
  let segment = 1;
  let toolCalls = 0;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const replies: string[] = [];
  let lastText = "";
  const results: Record<string, StepResult> = {};
  /** Events not written yet: they go out first with the next turns step, or on their own. */
  let pending: RunEventBody[] = [];

  const addUsage = (more: Usage) => {
    usage.inputTokens += more.inputTokens;
    usage.outputTokens += more.outputTokens;
  };
  const flush = async () => {
    if (pending.length === 0) return;
    nextId = await emitEvents(runId, nextId, pending);
    pending = [];
  };
  /** Outputs as conditions read them: `steps.<id>.<field>`. */
  const outputs = () =>
    Object.fromEntries(
      Object.entries(results).flatMap(([id, result]) => (result.output ? [[id, result.output]] : [])),
    );

  /** The budget left, or the limit it reached (checked before every model call). */
  const overBudget = (): AgentRunOutcome | undefined => {
    const reached =
      turnIndex >= budget.modelTurns
        ? `${budget.modelTurns} model turns`
        : toolCalls >= budget.toolCalls
          ? `${budget.toolCalls} tool calls`
          : usage.inputTokens + usage.outputTokens >= budget.tokens
            ? `${budget.tokens} tokens`
            : undefined;
    return reached
      ? { status: "limit", summary: `Stopped at the pipeline's budget of ${reached}.` }
      : undefined;
  };

  /** An agent's system prompt: the run's, the agent's instructions, the outputs it asked for. */
  const agentSystem = (agent: PipelineAgent, inputs: string[] | undefined, round: number) => {
    const given = (inputs ?? [])
      .filter((id) => results[id] !== undefined)
      .map((id) => `- ${id}: ${JSON.stringify(results[id]?.output ?? results[id]?.text)}`);
    return [
      start.system,
      "",
      `${PIPELINE_AGENT_MARKER} ${agent.id} (round ${round})`,
      "You are one agent of a pipeline; other agents work before and after you.",
      agent.instructions,
      ...(given.length > 0 ? ["", "What earlier steps found:", ...given] : []),
    ].join("\n");
  };

  /** One agent step: its turns (streamed, its tool calls run in the browser), then its output. */
  const runAgent = async (
    step: Extract<PipelineStep, { agent: string }>,
    path: string,
    round: number,
  ): Promise<StepEnd | undefined> => {
    const agent = agents.get(step.agent);
    if (!agent) return { failure: { code: "step-failed", message: `no agent "${step.agent}"` } };
    const exhausted = overBudget();
    if (exhausted) return { end: exhausted };
    const system = agentSystem(agent, step.inputs, round);
    const messages: ModelMessage[] = [
      ...(agent.context === "conversation" ? args.history : []),
      { role: "user", content: input.prompt },
    ];
    const tools = start.tools[agent.id] ?? [];
    const modelId = agent.model ?? input.modelId;
    const leading = pending;
    pending = [];
    const callIdPrefix = `s${segment}.`;
    const done = await runTurns({
      callIdPrefix,
      runId,
      segment: segment++,
      firstId: nextId,
      turnIndex,
      toolCallsBefore: toolCalls,
      modelId,
      system,
      messages,
      tools,
      leading,
      audience,
      limits: {
        ...limits,
        maxTurnsPerStep: Math.min(limits.maxTurnsPerStep, budget.modelTurns - turnIndex),
        maxToolCallsPerRun: Math.min(limits.maxToolCallsPerRun, budget.toolCalls),
      },
      runDeadline: start.deadline,
    });
    nextId = done.nextId;
    turnIndex = done.turnIndex;
    toolCalls += done.toolCalls;
    addUsage(done.usage);
    replies.push(...done.replies);
    if (done.lastText) lastText = done.lastText;
    if (done.end) {
      if (done.end.status === "error") {
        return { failure: { code: done.end.code ?? "step-failed", message: done.end.summary ?? "failed" } };
      }
      return { end: done.end };
    }
    const result: StepResult = { text: done.lastText };
    if (agent.output) {
      const answered = await agentOutput({
        runId,
        modelId,
        system,
        messages: [...messages, ...done.messages],
        tools,
        output: agent.output,
        timeoutMs: limits.modelStepTimeoutMs,
      });
      addUsage(answered.usage);
      if (!answered.output) {
        return {
          failure: { code: "output-invalid", message: `${agent.id}: ${answered.failure ?? "no output"}` },
        };
      }
      result.output = answered.output;
    }
    results[stepId(step) ?? step.agent] = result;
    pending.push({
      type: "pipeline-step",
      path,
      status: "done",
      ...(result.output ? { output: result.output } : {}),
    });
    return undefined;
  };

  /** A parallel block: a snapshot of the document, then every branch at once (read only). */
  const runParallel = async (
    step: Extract<PipelineStep, { parallel: PipelineStep[] }>,
    path: string,
    round: number,
  ): Promise<StepEnd | undefined> => {
    const exhausted = overBudget();
    if (exhausted) return { end: exhausted };
    const branches = flattenBranches(step.parallel, `${path}.parallel`);
    pending.push(
      ...branches.map(
        ({ path: branchPath }): RunEventBody => ({
          type: "pipeline-step",
          path: branchPath,
          status: "running",
        }),
      ),
    );
    await flush();
    const snapshot = await documentSnapshot(input.documentId);
    const concurrency = step.maxConcurrency ?? branches.length;
    const answers: BranchResult[] = [];
    for (let from = 0; from < branches.length; from += concurrency) {
      const batch = branches.slice(from, from + concurrency);
      answers.push(
        ...(await Promise.all(
          batch.map(({ step: branch }) => {
            const agent = agents.get(branch.agent);
            return parallelAgent({
              runId,
              block: path,
              modelId: agent?.model ?? input.modelId,
              system: agent ? agentSystem(agent, branch.inputs, round) : start.system,
              snapshot,
              prompt: input.prompt,
              output: agent?.output,
              timeoutMs: limits.modelStepTimeoutMs,
            });
          }),
        )),
      );
    }
    let failure: { code: string; message: string } | undefined;
    branches.forEach(({ step: branch, path: branchPath }, index) => {
      const answer = answers[index];
      if (!answer) return;
      addUsage(answer.usage);
      turnIndex++;
      if (answer.failure) {
        failure ??= { code: "step-failed", message: `${branch.agent}: ${answer.failure}` };
        pending.push({ type: "pipeline-step", path: branchPath, status: "failed", error: answer.failure });
        return;
      }
      results[stepId(branch) ?? branch.agent] = { text: answer.text, output: answer.output };
      if (answer.text) {
        pending.push({ type: "text-delta", messageId: `${runId}:p${branchPath}`, delta: answer.text });
        replies.push(answer.text);
      }
      pending.push({
        type: "pipeline-step",
        path: branchPath,
        status: "done",
        ...(answer.output ? { output: answer.output } : {}),
      });
    });
    return failure ? { failure } : undefined;
  };

  /** Runs one step with its retries; `undefined` when it completed. */
  const execute = async (step: PipelineStep, path: string, round: number): Promise<StepEnd | undefined> => {
    const attempts = step.retry?.maxAttempts ?? 1;
    for (let attempt = 1; ; attempt++) {
      pending.push({ type: "pipeline-step", path, status: "running", ...(attempt > 1 ? { attempt } : {}) });
      const callsBefore = toolCalls;
      const ended = await executeOnce(step, path, round);
      if (!ended || "end" in ended) {
        if (ended && "end" in ended)
          pending.push({ type: "pipeline-step", path, status: "failed", error: ended.end.summary });
        else if (!("agent" in step)) pending.push({ type: "pipeline-step", path, status: "done" });
        return ended;
      }
      // Retried only while it has made no tool call: what it may have written is never applied twice.
      const retry = step.retry;
      if (attempt >= attempts || !retryable(retry, ended.failure.code) || toolCalls > callsBefore) {
        pending.push({ type: "pipeline-step", path, status: "failed", error: ended.failure.message });
        return ended;
      }
      const delayMs = backoff(retry, attempt);
      pending.push({
        type: "pipeline-step",
        path,
        status: "retrying",
        attempt,
        delayMs,
        error: ended.failure.message,
      });
      await flush();
      if (delayMs > 0) await sleep(delayMs);
    }
  };

  const executeList = async (steps: PipelineStep[], prefix: string, round: number) => {
    for (const [index, step] of steps.entries()) {
      const ended = await execute(step, childPath(prefix, index), round);
      if (ended) return ended;
    }
    return undefined;
  };

  const executeOnce = async (
    step: PipelineStep,
    path: string,
    round: number,
  ): Promise<StepEnd | undefined> => {
    if ("agent" in step) return runAgent(step, path, round);
    if ("sequence" in step) return executeList(step.sequence, `${path}.sequence`, round);
    if ("parallel" in step) return runParallel(step, path, round);
    if ("branch" in step) {
      const taken = step.branch.findIndex((entry) => evaluateCondition(entry.when, outputs()));
      const steps = taken >= 0 ? step.branch[taken]?.steps : step.else;
      pending.push({ type: "pipeline-step", path, status: "running", taken: taken >= 0 ? taken : -1 });
      if (!steps) return undefined;
      return executeList(steps, taken >= 0 ? `${path}.branch.${taken}.steps` : `${path}.else`, round);
    }
    for (let iteration = 1; iteration <= step.maxIterations; iteration++) {
      pending.push({ type: "pipeline-step", path, status: "running", iteration });
      const ended = await executeList(step.loop, `${path}.loop`, iteration);
      if (ended) return ended;
      if (evaluateCondition(step.until, outputs())) return undefined;
    }
    if (step.onExhausted === "fail") {
      return {
        failure: {
          code: "step-failed",
          message: `the loop ran ${step.maxIterations} rounds and "${step.until}" is still false`,
        },
      };
    }
    return undefined;
  };

  let outcome: AgentRunOutcome;
  try {
    const ended = await executeList(definition.steps, "", 1);
    outcome = !ended
      ? { status: "done", summary: lastText || `${definition.name}: done.` }
      : "end" in ended
        ? ended.end
        : { status: "error", code: ended.failure.code, summary: ended.failure.message };
  } catch (error) {
    // A condition that could not be evaluated (it read an output a branch not taken never made).
    outcome = {
      status: "error",
      code: "step-failed",
      summary: error instanceof Error ? error.message : String(error),
    };
  }
  const last: RunEventBody =
    outcome.status === "error"
      ? {
          type: "error",
          code: outcome.code ?? "step-failed",
          message: outcome.summary ?? "failed",
          recoverable: false,
        }
      : { type: "finish", status: outcome.status, summary: outcome.summary, usage: { ...usage } };
  await emitEvents(runId, nextId, [...pending, last], true);
  // No conversation is returned: a pipeline's agents each have their own, so Continue starts a
  // pipeline over (not supported yet; the route answers that the run cannot be continued).
  return { ...outcome, usage, toolCalls, reply: replies.join("\n\n").slice(0, MAX_REPLY_CHARS) };
}

/** The agent steps of a parallel block (nested blocks flattened), with their paths. */
function flattenBranches(
  steps: PipelineStep[],
  prefix: string,
): { step: Extract<PipelineStep, { agent: string }>; path: string }[] {
  return steps.flatMap((step, index) => {
    const path = childPath(prefix, index);
    if ("agent" in step) return [{ step, path }];
    if ("parallel" in step) return flattenBranches(step.parallel, `${path}.parallel`);
    return [];
  });
}

/** The path of the `index`-th step under `prefix` (as the panel's tree names it). */
const childPath = (prefix: string, index: number) => (prefix ? `${prefix}.${index}` : String(index));

function retryable(retry: Retry | undefined, code: string): boolean {
  return !retry?.on || (retry.on as readonly string[]).includes(code);
}

/** The wait before attempt `attempt + 1`. */
export function backoff(retry: Retry | undefined, attempt: number): number {
  if (!retry) return 0;
  return retry.backoff === "fixed" ? retry.delayMs : retry.delayMs * 2 ** (attempt - 1);
}
