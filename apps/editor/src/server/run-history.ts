import { type AgentRunOutcome, costMicroUsd } from "@coauthor/agent-workflow/server";
import type { RunStatus } from "@coauthor/types";
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { appendMessages } from "./conversation";
import { getDb } from "./db";
import { runEdits, runs, users } from "./db/schema";

const HISTORY_LIMIT = 100;

type EndedStatus = Exclude<RunStatus, "running">;

/** Runs on a document, newest first (only `userId`'s when given): what was asked and how it went. */
export async function listDocumentRuns(documentId: string, userId?: string) {
  const db = await getDb();
  const rows = await db
    .select({ run: runs, hasEdits: isNotNull(runEdits.runId), userName: users.name })
    .from(runs)
    .leftJoin(runEdits, eq(runEdits.runId, runs.id))
    .leftJoin(users, eq(users.id, runs.userId))
    .where(and(eq(runs.documentId, documentId), userId ? eq(runs.userId, userId) : undefined))
    .orderBy(desc(runs.createdAt))
    .limit(HISTORY_LIMIT);
  return rows.map(({ run: row, hasEdits, userName }) => ({
    id: row.id,
    userId: row.userId,
    /** Who started it (their display name). */
    userName: userName ?? "",
    prompt: row.prompt,
    model: row.model,
    status: row.status,
    summary: row.summary,
    toolCalls: row.toolCalls,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cachedInputTokens: row.cachedInputTokens,
    costMicroUsd: row.costMicroUsd,
    startedAt: row.createdAt.toISOString(),
    durationMs: row.finishedAt ? row.finishedAt.getTime() - row.createdAt.getTime() : null,
    /** Whether its edits are stored (its starter may undo it from History). */
    hasEdits,
    /** Whether its log is gone (deleted by a writer, or expired): History offers no event log. */
    logDeleted: row.logsPurgedAt !== null,
  }));
}

function isOutcome(value: unknown): value is AgentRunOutcome {
  return typeof value === "object" && value !== null && "status" in value && typeof value.status === "string";
}

/** What an ended run answered, as the conversation and a thread it was asked in show it. */
export function runAnswerOf(outcome: unknown): string {
  const ended = isOutcome(outcome) ? outcome : undefined;
  return (
    ended?.reply || ended?.summary || (ended?.status === "error" ? `Failed: ${ended.summary ?? ""}` : "")
  );
}

/**
 * Stores how an ended run went: its status (unless its row already says it ended: a Stop, a new
 * prompt or its finish frame got there first), what it reported (tool calls, tokens, summary) —
 * in one statement — and its exchange in the user's conversation: the prompt and the assistant's
 * reply. Idempotent: message ids derive from the run id.
 */
export async function recordRunOutcome(runId: string, status: EndedStatus, outcome: unknown): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .select({
      documentId: runs.documentId,
      userId: runs.userId,
      prompt: runs.prompt,
      model: runs.model,
      summary: runs.summary,
      createdAt: runs.createdAt,
      finishedAt: runs.finishedAt,
    })
    .from(runs)
    .where(eq(runs.id, runId));
  if (!row) return;
  const ended = isOutcome(outcome) ? outcome : undefined;
  const finishedAt = row.finishedAt ?? new Date();
  await db
    .update(runs)
    .set({
      status: sql`case when ${runs.status} = 'running' then ${status} else ${runs.status} end`,
      summary: ended?.summary ?? ended?.code ?? row.summary,
      toolCalls: ended?.toolCalls ?? 0,
      inputTokens: ended?.usage?.inputTokens ?? 0,
      outputTokens: ended?.usage?.outputTokens ?? 0,
      cachedInputTokens: ended?.usage?.cachedInputTokens ?? 0,
      cacheWriteTokens: ended?.usage?.cacheWriteTokens ?? 0,
      costMicroUsd: ended?.usage ? costMicroUsd(row.model, ended.usage) : null,
      // Not when a writer deleted the run's log meanwhile (the conversation is part of it).
      conversation: ended?.conversation
        ? sql`case when ${runs.logsPurgedAt} is null then ${JSON.stringify(ended.conversation)}::jsonb else null end`
        : null,
      finishedAt,
    })
    .where(eq(runs.id, runId));
  await appendMessages(row.documentId, row.userId, [
    { id: `${runId}:user`, role: "user", mode: "agent", content: row.prompt, runId, at: row.createdAt },
    {
      id: `${runId}:assistant`,
      role: "assistant",
      mode: "agent",
      content: runAnswerOf(outcome),
      runId,
      at: finishedAt,
    },
  ]);
}
