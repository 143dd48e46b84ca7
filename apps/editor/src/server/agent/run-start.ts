import { log } from "@coauthor/agent-workflow";
import { type AgentWorkflowInput, agentWorkflow, defaultModelId } from "@coauthor/agent-workflow/server";
import type { EditMode } from "@coauthor/types";
import { start } from "workflow/api";
import { agentLimits } from "@/server/agent/limits";
import { admitRun } from "@/server/agent/run-admission";
import { superviseRun } from "@/server/agent/run-control";
import { rateLimit } from "@/server/http/rate-limit";
import { saveRunVersion } from "@/server/versions";
import { purgeEndedRunsEngineState } from "@/server/workflow/engine-state-purge";

// What every agent run goes through once admitted, whoever asked for it (the agent route for a
// writer's tab, or the server for a comment's `@Coauthor`), and the start of a run nobody's tab
// asked for.

/** The workflow's input with what every run has alike (the deployment's limits). */
export function workflowInputOf(
  input: Omit<AgentWorkflowInput, "limits" | "messages"> & Partial<Pick<AgentWorkflowInput, "messages">>,
): AgentWorkflowInput {
  return { messages: [], ...input, limits: agentLimits() };
}

/** After a run is admitted: the version before it, its supervision until it ends, and housekeeping. */
export function followAdmittedRun(run: { runId: string; documentId: string; modelId: string }): void {
  // Captured now, before the run's first edit can land; stored meanwhile (not awaited).
  void saveRunVersion(run.runId, "before", run.documentId);
  superviseRun(run.runId);
  // Earlier runs' engine state, which every replay would list (not awaited: this run goes on).
  purgeEndedRunsEngineState();
  log.info("run started", { runId: run.runId, documentId: run.documentId, model: run.modelId });
}

/** Why the server did not start a run: the writer's rate limit or a cap (the refusal's code). */
export type ServerRunRefusal = { ok: false; reason: string };

/**
 * Starts an agent run that the server executes from its first call (no tab asked for it): the
 * writer's rate limit and the run caps hold as for a run from the panel, and it supersedes the
 * writer's run in flight on the document as any new prompt does. `threadId`: the comment thread
 * it answers.
 */
export async function startServerRun(run: {
  userId: string;
  documentId: string;
  prompt: string;
  editMode: EditMode;
  threadId?: string;
}): Promise<{ ok: true; runId: string } | ServerRunRefusal> {
  const limited = await rateLimit(run.userId, "runs");
  if (limited) return { ok: false, reason: `rate limited (${limited.status})` };
  const modelId = defaultModelId();
  const admission = await admitRun(
    {
      userId: run.userId,
      documentId: run.documentId,
      prompt: run.prompt,
      model: modelId,
      editMode: run.editMode,
      executor: "server",
      threadId: run.threadId ?? null,
    },
    async () => {
      const started = await start(agentWorkflow, [
        workflowInputOf({ userId: run.userId, documentId: run.documentId, prompt: run.prompt, modelId }),
      ]);
      return { runId: started.runId };
    },
  );
  if (!admission.ok) return { ok: false, reason: `refused (${admission.response.status})` };
  followAdmittedRun({ runId: admission.started.runId, documentId: run.documentId, modelId });
  return { ok: true, runId: admission.started.runId };
}
