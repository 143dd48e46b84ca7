import type { ChatMessage, EditMode, FinishStatus, RunEvent, RunEventOf } from "@coauthor/types";
import { z } from "zod";
import { isProtocolRefusal, PROTOCOL_OUTDATED_MESSAGE, protocolHeaders } from "./protocol-version";

// Generic run transport: the HTTP calls of a run (start, cancel, tool results, the active run,
// chat). Following an agent run's stream lives in run-follow.ts. Nothing here knows about the
// editor; the tool executor is injected.

/** What the user asks, with the context sent to both the agent and the chat routes. */
export interface RunRequest {
  documentId: string;
  prompt: string;
  messages: ChatMessage[];
  model?: string;
  selection?: { text: string; blockIds: string[] };
  /** Continue this earlier run (stopped at a limit or by its time limit) instead of starting afresh. */
  continueRunId?: string;
  /** Run this recipe (a pipeline) instead of the agent planning on its own. */
  recipeId?: string;
  /** How the agent's writes land; the server executes the run's calls this way when no tab is there. */
  editMode?: EditMode;
  /** Run in the background: the server executes every tool call; this tab only follows the run. */
  background?: boolean;
}

/** How a run ended, as the panel reports it. */
export type RunOutcome = { status: FinishStatus; summary?: string } | { status: "failed"; reason: string };

/** Runs one tool call locally and returns the result to post back (must not throw for bad input). */
export type ToolExecutor = (call: RunEventOf<"tool-call">) => Promise<unknown>;

export interface AgentRunHandlers {
  signal: AbortSignal;
  executeTool: ToolExecutor;
  onRunId: (runId: string) => void;
  /** Every new event, once, in stream order (duplicates by `(runId, id)` are dropped). */
  onEvent: (event: RunEvent) => void;
  /** A tool call finished locally: `ok` is the tool's verdict, `detail` why it failed (tool or delivery). */
  onToolSettled: (call: RunEventOf<"tool-call">, outcome: { ok: boolean; detail?: string }) => void;
}

/**
 * The message of an HTTP error answer (`{ code, message }` JSON, or its text, or its status); a
 * refusal of this page's protocol version says to reload.
 */
export async function readHttpError(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    if (isProtocolRefusal(response.status, body)) return PROTOCOL_OUTDATED_MESSAGE;
    if (body && typeof body === "object" && "message" in body && typeof body.message === "string") {
      return body.message;
    }
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return text.trim() || `HTTP ${response.status}`;
}

/** An HTTP 5xx (or a proxy's 502/503 while the server restarts): worth retrying. */
export class ServerError extends Error {}

/** Asks the server to cancel run `runId` (the fetch abort alone may not reach the workflow). */
export async function cancelRun(runId: string): Promise<void> {
  const response = await fetch(`/api/llm/agent/${encodeURIComponent(runId)}`, { method: "DELETE" });
  if (!response.ok) console.warn(`[assistant] cancel ${runId}: ${await readHttpError(response)}`);
}

/** Posts a tool result for the hook of `call`; throws when the server does not accept it. */
export async function postToolResult(call: RunEventOf<"tool-call">, result: unknown, signal: AbortSignal) {
  const response = await fetch("/api/llm/agent/callback", {
    method: "POST",
    headers: protocolHeaders({ "content-type": "application/json" }),
    body: JSON.stringify({ hookToken: call.hookToken, toolCallId: call.toolCallId, result }),
    signal,
  });
  if (response.status >= 500) throw new ServerError(await readHttpError(response));
  if (!response.ok) throw new Error(await readHttpError(response));
}

/** `GET /api/llm/agent/active?documentId=…`: the caller's run still going on a document, if any. */
export const activeRunResponseSchema = z.object({
  run: z
    .object({
      runId: z.string().min(1),
      prompt: z.string(),
      /** Tool calls whose result the server already accepted: a reattached page never runs them again. */
      answeredToolCallIds: z.array(z.string()),
    })
    .nullable(),
});
export type ActiveRunResponse = z.infer<typeof activeRunResponseSchema>;
export type ReattachableRun = NonNullable<ActiveRunResponse["run"]>;

/** The caller's run still going on `documentId`, or null. */
export async function findActiveRun(
  documentId: string,
  signal: AbortSignal,
): Promise<ReattachableRun | null> {
  const response = await fetch(`/api/llm/agent/active?documentId=${encodeURIComponent(documentId)}`, {
    signal,
  });
  if (!response.ok) throw new Error(await readHttpError(response));
  const parsed = activeRunResponseSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`bad active-run answer: ${parsed.error.message}`);
  return parsed.data.run;
}

/** Streams a chat answer (plain text), calling `onDelta` per decoded chunk. */
export async function streamChat(
  request: RunRequest,
  { signal, onDelta }: { signal: AbortSignal; onDelta: (delta: string) => void },
): Promise<RunOutcome> {
  const response = await fetch("/api/llm/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...request, mode: "chat" }),
    signal,
  });
  if (!response.ok || !response.body) {
    return { status: "failed", reason: response.ok ? "empty response" : await readHttpError(response) };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) onDelta(text);
    }
    const rest = decoder.decode();
    if (rest) onDelta(rest);
  } finally {
    reader.releaseLock();
  }
  return { status: "done" };
}
