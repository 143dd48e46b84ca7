import type { ChatMessage, RunEvent, RunEventOf } from "@coauthor/types";
import { readRunEvents } from "@coauthor/types/sse";

// Generic run transport: HTTP, SSE, dedupe and the tool-call handshake. Nothing here knows about the
// editor; the tool executor is injected.

/** What the user asks, with the context sent to both the agent and the chat routes. */
export interface RunRequest {
  documentId: string;
  prompt: string;
  messages: ChatMessage[];
  model?: string;
  selection?: { text: string; blockIds: string[] };
}

/** How a run ended, as the panel reports it. */
export type RunOutcome =
  | { status: "done" | "cancelled" | "timeout"; summary?: string }
  | { status: "failed"; reason: string };

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

/** The message of an HTTP error answer (`{ code, message }` JSON, or its text, or its status). */
export async function readHttpError(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object" && "message" in body && typeof body.message === "string") {
      return body.message;
    }
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return text.trim() || `HTTP ${response.status}`;
}

/** Asks the server to cancel run `runId` (the fetch abort alone may not reach the workflow). */
export async function cancelRun(runId: string): Promise<void> {
  const response = await fetch(`/api/llm/agent/${encodeURIComponent(runId)}`, { method: "DELETE" });
  if (!response.ok) console.warn(`[assistant] cancel ${runId}: ${await readHttpError(response)}`);
}

/** Posts a tool result for the hook of `call`; throws when the server does not accept it. */
export async function postToolResult(call: RunEventOf<"tool-call">, result: unknown, signal: AbortSignal) {
  const response = await fetch("/api/llm/agent/callback", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ hookToken: call.hookToken, toolCallId: call.toolCallId, result }),
    signal,
  });
  if (!response.ok) throw new Error(await readHttpError(response));
}

function resultOk(result: unknown): boolean {
  return typeof result === "object" && result !== null && "ok" in result && result.ok === true;
}

function resultDetail(result: unknown): string | undefined {
  if (
    typeof result === "object" &&
    result !== null &&
    "message" in result &&
    typeof result.message === "string"
  ) {
    return result.message;
  }
  return undefined;
}

async function handleToolCall(call: RunEventOf<"tool-call">, handlers: AgentRunHandlers): Promise<void> {
  // Never touch the document after Stop, nor for a call the server has already given up on.
  if (handlers.signal.aborted) return;
  if (Date.now() > call.deadline) {
    handlers.onToolSettled(call, { ok: false, detail: "deadline passed" });
    return;
  }
  const result = await handlers.executeTool(call);
  if (handlers.signal.aborted) return;
  try {
    await postToolResult(call, result, handlers.signal);
    handlers.onToolSettled(call, { ok: resultOk(result), detail: resultDetail(result) });
  } catch (error) {
    if (handlers.signal.aborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    handlers.onToolSettled(call, { ok: false, detail: `result not accepted: ${reason}` });
  }
}

/**
 * Starts an agent run and follows its event stream to the end, running each tool call (one at a
 * time, in order) and posting its result. Resolves with how the run ended.
 */
export async function streamAgentRun(request: RunRequest, handlers: AgentRunHandlers): Promise<RunOutcome> {
  const response = await fetch("/api/llm/agent", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ ...request, mode: "agent" }),
    signal: handlers.signal,
  });
  if (!response.ok || !response.body) {
    return { status: "failed", reason: response.ok ? "empty response" : await readHttpError(response) };
  }
  const headerRunId = response.headers.get("x-run-id");
  if (headerRunId) handlers.onRunId(headerRunId);

  const seen = new Set<string>();
  const onInvalid = (error: { message: string }) => console.warn("[assistant] bad frame:", error.message);
  for await (const event of readRunEvents(response.body, onInvalid)) {
    if (handlers.signal.aborted) return { status: "cancelled" };
    const key = `${event.runId}:${event.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (event.type === "run-start") handlers.onRunId(event.runId);
    handlers.onEvent(event);
    if (event.type === "tool-call") await handleToolCall(event, handlers);
    else if (event.type === "finish") return { status: event.status, summary: event.summary };
    else if (event.type === "error" && !event.recoverable) return { status: "failed", reason: event.message };
  }
  if (handlers.signal.aborted) return { status: "cancelled" };
  return { status: "failed", reason: "the run stream ended without a result" };
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
