import type { RunEventOf } from "@coauthor/types";
import { readRunEvents } from "@coauthor/types/sse";
import { forgetRunTools, recallTool, rememberTool } from "./executed-tools";
import { findLostStart } from "./lost-start";
import { protocolHeaders } from "./protocol-version";
import { waitToRetry } from "./retry-wait";
import {
  type AgentRunHandlers,
  postToolResult,
  type ReattachableRun,
  type RunOutcome,
  type RunRequest,
  readHttpError,
  ServerError,
} from "./run-client";
import { followRunLease, type RunLease } from "./run-lease";

// Following an agent run's event stream to its end: dedupe on (runId, id), run each tool call
// once and deliver its result, reattach after a dropped connection or a server restart.

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

// How long the client keeps trying to reach a run (server restart, network blip) before giving up.
const RECONNECT_BUDGET_MS = 120_000;
// A delivery may still be judged by the workflow's deadline a little after the call's own deadline.
const DELIVERY_GRACE_MS = 10_000;

/** Whether a failed fetch is worth retrying: the server could not be reached or is restarting. */
function transient(error: unknown): boolean {
  return error instanceof TypeError;
}

async function runToolOnce(call: RunEventOf<"tool-call">, handlers: AgentRunHandlers): Promise<unknown> {
  try {
    return await handlers.executeTool(call);
  } catch (error) {
    // A tool that throws still answers: the model gets the failure and the run goes on.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[assistant] tool ${call.toolName} threw:`, error);
    return { ok: false, code: "internal-error", message: `the tool failed in the browser: ${message}` };
  }
}

/** Posts a result until the server takes it, retrying while it cannot be reached (restart). */
async function deliverResult(
  call: RunEventOf<"tool-call">,
  result: unknown,
  signal: AbortSignal,
): Promise<{ ok: true } | { ok: false; detail: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      await postToolResult(call, result, signal);
      return { ok: true };
    } catch (error) {
      if (signal.aborted) return { ok: false, detail: "stopped" };
      const reason = error instanceof Error ? error.message : String(error);
      if (!transient(error) && !(error instanceof ServerError)) return { ok: false, detail: reason };
      if (Date.now() > call.deadline + DELIVERY_GRACE_MS) return { ok: false, detail: reason };
    }
    await waitToRetry(attempt, signal);
  }
}

async function handleToolCall(
  call: RunEventOf<"tool-call">,
  handlers: AgentRunHandlers,
  answered: ReadonlySet<string>,
): Promise<void> {
  // Never touch the document after Stop, nor for a call the server already has a result for.
  if (handlers.signal.aborted || answered.has(call.toolCallId)) return;
  const key = `${call.runId}:${call.toolCallId}`;
  let record = recallTool(key);
  if (record?.delivered) return;
  if (!record) {
    if (Date.now() > call.deadline) {
      handlers.onToolSettled(call, { ok: false, detail: "deadline passed" });
      return;
    }
    record = { result: await runToolOnce(call, handlers), delivered: false };
    rememberTool(key, record);
  }
  if (handlers.signal.aborted) return;
  const delivery = await deliverResult(call, record.result, handlers.signal);
  if (handlers.signal.aborted) return;
  if (delivery.ok) {
    record = { ...record, delivered: true };
    rememberTool(key, record);
    handlers.onToolSettled(call, { ok: resultOk(record.result), detail: resultDetail(record.result) });
  } else {
    handlers.onToolSettled(call, { ok: false, detail: `result not accepted: ${delivery.detail}` });
  }
}

/** What a reader knows about a run across its (re)connections. */
interface FollowState {
  runId: string;
  lastId: number;
  seen: Set<string>;
  answered: Set<string>;
  /** Tool calls seen and not yet answered, for a tab that takes the lease over mid-run. */
  pending: Map<string, RunEventOf<"tool-call">>;
  /** Tool calls run by this tab, one at a time, in order. */
  queue: Promise<void>;
  lease: RunLease | null;
}

/** Runs `call` in this tab's turn; only the tab holding the run's lease executes tool calls. */
async function executeIfLeased(
  call: RunEventOf<"tool-call">,
  state: FollowState,
  handlers: AgentRunHandlers,
): Promise<void> {
  if (state.lease !== null && !(await state.lease.held())) return;
  state.pending.delete(call.toolCallId);
  await handleToolCall(call, handlers, state.answered);
}

/** The lease of this tab on the run, started for `state`: on taking it over, the calls still unanswered run here. */
function leaseFor(state: FollowState, handlers: AgentRunHandlers): RunLease {
  return followRunLease(state.runId, () => {
    for (const call of state.pending.values()) {
      state.queue = state.queue.then(() => executeIfLeased(call, state, handlers));
    }
  });
}

/** Reads one connection's events; resolves with the outcome, or null when the connection dropped. */
async function readConnection(
  body: ReadableStream<Uint8Array>,
  state: FollowState,
  handlers: AgentRunHandlers,
): Promise<RunOutcome | null> {
  const onInvalid = (error: { message: string }) => console.warn("[assistant] bad frame:", error.message);
  try {
    for await (const event of readRunEvents(body, onInvalid)) {
      if (handlers.signal.aborted) return { status: "cancelled" };
      if (event.runId !== state.runId) {
        console.warn(`[assistant] dropped an event of run ${event.runId} in the stream of ${state.runId}`);
        continue;
      }
      const key = `${event.runId}:${event.id}`;
      if (event.type === "heartbeat" || state.seen.has(key)) continue;
      state.seen.add(key);
      state.lastId = Math.max(state.lastId, event.id);
      if (event.type === "tool-result") {
        state.answered.add(event.toolCallId);
        state.pending.delete(event.toolCallId);
      }
      handlers.onEvent(event);
      if (event.type === "tool-call") {
        state.pending.set(event.toolCallId, event);
        state.queue = state.queue.then(() => executeIfLeased(event, state, handlers));
        // The holder answers before reading on (calls run in order); a follower reads on at once.
        if (state.lease === null || (await state.lease.held())) await state.queue;
      } else if (event.type === "finish") return { status: event.status, summary: event.summary };
      else if (event.type === "error" && !event.recoverable)
        return { status: "failed", reason: event.message };
    }
  } catch (error) {
    if (handlers.signal.aborted) return { status: "cancelled" };
    if (!transient(error)) throw error;
    console.warn(`[assistant] run ${state.runId}: connection lost, reattaching`, error);
  }
  return handlers.signal.aborted ? { status: "cancelled" } : null;
}

async function openStream(state: FollowState, signal: AbortSignal): Promise<Response> {
  const from = state.lastId + 1;
  const response = await fetch(`/api/llm/agent/${encodeURIComponent(state.runId)}/stream?from=${from}`, {
    headers: protocolHeaders({ accept: "text/event-stream" }),
    signal,
  });
  if (response.status >= 500) throw new ServerError(await readHttpError(response));
  return response;
}

/**
 * Follows a run to its end across dropped connections: each reconnect asks for the events after
 * the last one seen (`Last-Event-ID`), so nothing is shown twice and nothing is skipped.
 */
async function followRun(
  state: FollowState,
  handlers: AgentRunHandlers,
  first?: Response,
): Promise<RunOutcome> {
  state.lease = leaseFor(state, handlers);
  try {
    return await followStream(state, handlers, first);
  } finally {
    state.lease.release();
  }
}

async function followStream(
  state: FollowState,
  handlers: AgentRunHandlers,
  first?: Response,
): Promise<RunOutcome> {
  let response = first;
  let lastContact = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (handlers.signal.aborted) return { status: "cancelled" };
    try {
      response ??= await openStream(state, handlers.signal);
      if (!response.ok) return { status: "failed", reason: await readHttpError(response) };
      if (!response.body) return { status: "failed", reason: "empty response" };
      lastContact = Date.now();
      const before = state.lastId;
      const outcome = await readConnection(response.body, state, handlers);
      if (outcome && !handlers.signal.aborted) forgetRunTools(state.runId);
      if (outcome) return outcome;
      if (state.lastId > before) attempt = 0;
    } catch (error) {
      if (handlers.signal.aborted) return { status: "cancelled" };
      if (!transient(error) && !(error instanceof ServerError)) throw error;
    }
    response = undefined;
    if (Date.now() - lastContact > RECONNECT_BUDGET_MS) {
      return { status: "failed", reason: "lost the connection to the run" };
    }
    await waitToRetry(attempt, handlers.signal);
  }
}

function newFollowState(runId: string, answered: readonly string[]): FollowState {
  return {
    runId,
    lastId: -1,
    seen: new Set(),
    answered: new Set(answered),
    pending: new Map(),
    queue: Promise.resolve(),
    lease: null,
  };
}

/**
 * Starts an agent run and follows its event stream to the end, running each tool call (one at a
 * time, in order) and posting its result. A dropped connection is reattached. Resolves with how
 * the run ended.
 */
export async function streamAgentRun(request: RunRequest, handlers: AgentRunHandlers): Promise<RunOutcome> {
  let response: Response;
  try {
    response = await fetch("/api/llm/agent", {
      method: "POST",
      headers: protocolHeaders({ "content-type": "application/json", accept: "text/event-stream" }),
      body: JSON.stringify({ ...request, mode: "agent" }),
      signal: handlers.signal,
    });
  } catch (error) {
    if (handlers.signal.aborted || !transient(error)) throw error;
    const lost = await findLostStart(request, handlers.signal);
    if (!lost) throw error;
    return reattachAgentRun(lost, handlers);
  }
  if (response.status >= 500) {
    const lost = await findLostStart(request, handlers.signal);
    if (lost) return reattachAgentRun(lost, handlers);
  }
  if (!response.ok || !response.body) {
    return { status: "failed", reason: response.ok ? "empty response" : await readHttpError(response) };
  }
  const runId = response.headers.get("x-run-id");
  if (!runId) return { status: "failed", reason: "the server named no run" };
  handlers.onRunId(runId);
  return followRun(newFollowState(runId, []), handlers, response);
}

/**
 * Reattaches to a run still going (after a reload): replays its events from the first, once each,
 * and carries on. Tool calls the server already has a result for are shown, never run again.
 */
export async function reattachAgentRun(
  run: ReattachableRun,
  handlers: AgentRunHandlers,
): Promise<RunOutcome> {
  handlers.onRunId(run.runId);
  return followRun(newFollowState(run.runId, run.answeredToolCallIds), handlers);
}
