import type { AgentWorkflowInput } from "@coauthor/agent-workflow/server";
import { CONTINUABLE_STATUSES, runStatusSchema } from "@coauthor/types";
import { type ModelMessage, modelMessageSchema } from "ai";
import { z } from "zod";
import { apiError } from "@/server/http/errors";
import { findRun } from "@/server/runs";

const conversationSchema = z.array(modelMessageSchema).min(1);

type Continuation =
  | { ok: true; continues: NonNullable<AgentWorkflowInput["continues"]> }
  | { ok: false; response: Response };

/**
 * What a Continue picks up: the conversation of the writer's own earlier run on this document,
 * one that ended at a limit or ran out of time. Another writer's run, or one on another document,
 * is answered as unknown (its existence is not theirs to learn).
 */
export async function continuationOf(
  runId: string,
  userId: string,
  documentId: string,
): Promise<Continuation> {
  const run = await findRun(runId);
  if (!run || run.userId !== userId || run.documentId !== documentId) {
    return {
      ok: false,
      response: apiError(404, "not_found:run", "continueRunId: no such run of yours on this document"),
    };
  }
  const status = runStatusSchema.parse(run.status);
  if (!CONTINUABLE_STATUSES.includes(status)) {
    return {
      ok: false,
      response: apiError(
        409,
        "conflict:continue",
        `continueRunId: the run ended "${status}"; only a run stopped at a limit or by its time limit can be continued`,
      ),
    };
  }
  const conversation = conversationSchema.safeParse(run.conversation);
  if (!conversation.success) {
    return {
      ok: false,
      response: apiError(
        409,
        "conflict:continue",
        "continueRunId: that run's conversation is no longer kept (too long, or past the run log retention); send the task again",
      ),
    };
  }
  const messages: ModelMessage[] = conversation.data;
  return { ok: true, continues: { runId, conversation: messages } };
}
