import type { PipelineStep } from "@coauthor/types";
import { agentSystem } from "./agent-system.ts";
import { agentPrompt, overBudget, type PipelineRun, report, type StepEnd } from "./pipeline-run.ts";
import { type BranchResult, documentSnapshot, parallelAgent, startPipeline } from "./pipeline-steps.ts";
import { stepId } from "./steps.ts";

type AgentStep = Extract<PipelineStep, { agent: string }>;

/**
 * A parallel block: a snapshot of the document, then every branch at once. Branches only read
 * and propose (validation refuses a writing agent here); the step after the block applies.
 */
export async function runParallelBlock(
  run: PipelineRun,
  step: Extract<PipelineStep, { parallel: PipelineStep[] }>,
  path: string,
  round: number,
): Promise<StepEnd | undefined> {
  const exhausted = overBudget(run);
  if (exhausted) return { end: exhausted };
  const { ledger, input } = run;
  run.start ??= await startPipeline({ runId: run.runId, input, definition: run.definition });
  const start = run.start;
  const branches = flattenBranches(step.parallel, `${path}.parallel`);
  for (const branch of branches) report(run, { path: branch.path, status: "running" });
  await ledger.flush();
  const snapshot = await documentSnapshot(input.documentId);
  const concurrency = step.maxConcurrency ?? branches.length;
  const answers: BranchResult[] = [];
  for (let from = 0; from < branches.length; from += concurrency) {
    const batch = branches.slice(from, from + concurrency);
    answers.push(
      ...(await Promise.all(
        batch.map(({ step: branch }) => {
          const agent = run.agents.get(branch.agent);
          return parallelAgent({
            runId: run.runId,
            block: path,
            modelId: agent?.model ?? input.modelId,
            system: agent
              ? agentSystem(start.system, agentPrompt(run, agent, branch.inputs, round))
              : start.system,
            snapshot,
            prompt: run.request,
            output: agent?.output,
            timeoutMs: input.limits.modelStepTimeoutMs,
          });
        }),
      )),
    );
  }
  let failure: { code: string; message: string } | undefined;
  branches.forEach(({ step: branch, path: branchPath }, index) => {
    const answer = answers[index];
    if (!answer) return;
    ledger.countCall(answer.usage, 1);
    if (answer.failure) {
      failure ??= { code: "step-failed", message: `${branch.agent}: ${answer.failure}` };
      report(run, { path: branchPath, status: "failed", error: answer.failure });
      return;
    }
    run.results[stepId(branch) ?? branch.agent] = { text: answer.text, output: answer.output };
    // Each branch's words go out with the block's end, so branches never interleave on the stream.
    if (answer.text) ledger.say(`${run.runId}:p${branchPath}`, answer.text);
    report(run, { path: branchPath, status: "done", ...(answer.output ? { output: answer.output } : {}) });
  });
  return failure ? { failure } : undefined;
}

/** The agent steps of a parallel block (nested blocks flattened), with their paths. */
function flattenBranches(steps: PipelineStep[], prefix: string): { step: AgentStep; path: string }[] {
  return steps.flatMap((step, index) => {
    const path = childPath(prefix, index);
    if ("agent" in step) return [{ step, path }];
    if ("parallel" in step) return flattenBranches(step.parallel, `${path}.parallel`);
    return [];
  });
}

/** The path of the `index`-th step under `prefix` (as the panel's tree names it). */
export const childPath = (prefix: string, index: number) => (prefix ? `${prefix}.${index}` : String(index));
