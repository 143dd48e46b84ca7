import type { PipelineDefinition, PipelineStep, Retry } from "@coauthor/types";
import type { ModelMessage } from "ai";
import { sleep } from "workflow";
import { continuableConversation } from "../run-outcomes.ts";
import type { ToolCallAudience } from "../workflows/agent/steps/tool-call-event.ts";
import type { AgentRunOutcome, AgentWorkflowInput } from "../workflows/agent/types.ts";
import { runAgentStep } from "./agent-step.ts";
import { evaluateCondition } from "./condition-evaluation.ts";
import { childPath, runParallelBlock } from "./parallel-block.ts";
import { type PipelineRun, report, type StepEnd } from "./pipeline-run.ts";
import { drawsTree } from "./pipeline-tree.ts";
import { RunLedger } from "./run-ledger.ts";

// Runs a pipeline (workflow context: deterministic orchestration only; every I/O is a step). Every
// run is one: the default agent is the built-in pipeline of one planning agent. The definition is
// part of the run's input, so a replay never reads it again. Each agent runs in an isolated
// context: its instructions, the outputs of the steps it names as inputs and the writer's request
// — never another agent's conversation; it reaches the document through tools.

/** What a pipeline run starts from (pipeline-args.ts reads it off the run's input). */
export interface PipelineArgs {
  runId: string;
  input: AgentWorkflowInput;
  definition: PipelineDefinition;
  /** The writer's earlier conversation (for agents with `context: conversation`). */
  history: ModelMessage[];
  /** The writer's message: the prompt, and the selection when there is one. */
  request: string;
  audience: ToolCallAudience;
}

/** A pipeline run's state before its first step. */
export function openPipelineRun(args: PipelineArgs): PipelineRun {
  return {
    ...args,
    ledger: new RunLedger(args.runId, 0),
    agents: new Map(args.definition.agents.map((agent) => [agent.id, agent])),
    results: {},
    inPipeline: drawsTree(args.definition),
  };
}

export async function runPipeline(args: PipelineArgs): Promise<AgentRunOutcome> {
  const { definition } = args;
  const run = openPipelineRun(args);

  let outcome: AgentRunOutcome;
  try {
    const ended = await executeList(run, definition.steps, "", 1);
    outcome = !ended
      ? {
          status: "done",
          summary: run.ledger.lastText || (run.inPipeline ? `${definition.name}: done.` : undefined),
        }
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
  const finished = await run.ledger.finish(outcome, "step-failed");
  // A run of one agent that had the writer's conversation can be continued where it stopped.
  const conversation =
    definition.steps.length === 1 && run.conversation
      ? continuableConversation(outcome.status, run.conversation)
      : undefined;
  return { ...finished, ...(conversation ? { conversation } : {}) };
}

/** Runs one step with its retries; `undefined` when it completed. */
async function execute(run: PipelineRun, step: PipelineStep, path: string, round: number) {
  const attempts = step.retry?.maxAttempts ?? 1;
  for (let attempt = 1; ; attempt++) {
    report(run, { path, status: "running", ...(attempt > 1 ? { attempt } : {}) });
    const callsBefore = run.ledger.toolCalls;
    const ended = await executeOnce(run, step, path, round);
    if (!ended || "end" in ended) {
      if (ended) report(run, { path, status: "failed", error: ended.end.summary });
      else if (!("agent" in step)) report(run, { path, status: "done" });
      return ended;
    }
    // Retried only while it has made no tool call: what it may have written is never applied twice.
    const retry = step.retry;
    if (attempt >= attempts || !retryable(retry, ended.failure.code) || run.ledger.toolCalls > callsBefore) {
      report(run, { path, status: "failed", error: ended.failure.message });
      return ended;
    }
    const delayMs = backoff(retry, attempt);
    report(run, { path, status: "retrying", attempt, delayMs, error: ended.failure.message });
    await run.ledger.flush();
    if (delayMs > 0) await sleep(delayMs);
  }
}

async function executeList(
  run: PipelineRun,
  steps: PipelineStep[],
  prefix: string,
  round: number,
): Promise<StepEnd | undefined> {
  for (const [index, step] of steps.entries()) {
    const ended = await execute(run, step, childPath(prefix, index), round);
    if (ended) return ended;
  }
  return undefined;
}

/** Outputs as conditions read them: `steps.<id>.<field>`. */
const outputs = (run: PipelineRun) =>
  Object.fromEntries(
    Object.entries(run.results).flatMap(([id, result]) => (result.output ? [[id, result.output]] : [])),
  );

/** The index of the first condition that holds (evaluated in order, up to it), or -1. */
async function firstTrue(conditions: string[], values: Record<string, unknown>): Promise<number> {
  for (const [index, condition] of conditions.entries()) {
    if (await evaluateCondition(condition, values)) return index;
  }
  return -1;
}

async function executeOnce(
  run: PipelineRun,
  step: PipelineStep,
  path: string,
  round: number,
): Promise<StepEnd | undefined> {
  if ("agent" in step) return runAgentStep(run, step, path, round);
  if ("sequence" in step) return executeList(run, step.sequence, `${path}.sequence`, round);
  if ("parallel" in step) return runParallelBlock(run, step, path, round);
  if ("branch" in step) {
    const taken = await firstTrue(
      step.branch.map((entry) => entry.when),
      outputs(run),
    );
    const steps = taken >= 0 ? step.branch[taken]?.steps : step.else;
    report(run, { path, status: "running", taken: taken >= 0 ? taken : -1 });
    if (!steps) return undefined;
    return executeList(run, steps, taken >= 0 ? `${path}.branch.${taken}.steps` : `${path}.else`, round);
  }
  for (let iteration = 1; iteration <= step.maxIterations; iteration++) {
    report(run, { path, status: "running", iteration });
    const ended = await executeList(run, step.loop, `${path}.loop`, iteration);
    if (ended) return ended;
    if (await evaluateCondition(step.until, outputs(run))) return undefined;
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
}

function retryable(retry: Retry | undefined, code: string): boolean {
  return !retry?.on || (retry.on as readonly string[]).includes(code);
}

/** The wait before attempt `attempt + 1`. */
export function backoff(retry: Retry | undefined, attempt: number): number {
  if (!retry) return 0;
  return retry.backoff === "fixed" ? retry.delayMs : retry.delayMs * 2 ** (attempt - 1);
}
