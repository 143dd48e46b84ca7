import { randomUUID } from "node:crypto";
import type { RunMode } from "@coauthor/types";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "./db";
import { conversationMessages } from "./db/schema";

const MAX_MESSAGES = 200;

/** One stored line of a user's assistant conversation on a document. */
export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  mode: RunMode;
  content: string;
  runId: string | null;
  createdAt: Date;
}

/**
 * Appends messages to the conversation of `userId` on `documentId`. A given
 * `id` is stored once (recording a run's end twice changes nothing).
 */
export async function appendMessages(
  documentId: string,
  userId: string,
  messages: {
    id?: string;
    role: "user" | "assistant";
    mode: RunMode;
    content: string;
    runId?: string;
    at?: Date;
  }[],
): Promise<void> {
  const rows = messages
    .filter((m) => m.content.trim())
    .map((m) => ({
      id: m.id ?? randomUUID(),
      documentId,
      userId,
      role: m.role,
      mode: m.mode,
      content: m.content,
      runId: m.runId ?? null,
      createdAt: m.at ?? new Date(),
    }));
  if (rows.length === 0) return;
  const db = await getDb();
  await db.insert(conversationMessages).values(rows).onConflictDoNothing();
}

/** The latest messages of the conversation, oldest first. */
export async function listConversation(documentId: string, userId: string): Promise<StoredMessage[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(conversationMessages)
    .where(and(eq(conversationMessages.documentId, documentId), eq(conversationMessages.userId, userId)))
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.role))
    .limit(MAX_MESSAGES);
  return rows.reverse().map((row) => ({
    id: row.id,
    role: row.role === "assistant" ? "assistant" : "user",
    mode: row.mode === "chat" ? "chat" : "agent",
    content: row.content,
    runId: row.runId,
    createdAt: row.createdAt,
  }));
}

/** Deletes the whole conversation of `userId` on `documentId` (theirs only); how many messages went. */
export async function clearConversation(documentId: string, userId: string): Promise<number> {
  const db = await getDb();
  const deleted = await db
    .delete(conversationMessages)
    .where(and(eq(conversationMessages.documentId, documentId), eq(conversationMessages.userId, userId)))
    .returning({ id: conversationMessages.id });
  return deleted.length;
}
