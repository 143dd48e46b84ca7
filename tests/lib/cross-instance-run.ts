// Driving one agent run like a browser behind a load balancer while instances die and come back:
// each tool call is run once on a headless editor and its result posted to whichever instance
// answers; a dropped stream is reattached on another instance after the last event seen.
import { runEditorTool } from "@coauthor/tools";
import { isTerminalEvent, type RunEvent } from "@coauthor/types";
import type { LexicalEditor } from "lexical";
import type { CoauthorClient } from "./coauthor-client.ts";
import { HeldRunLease } from "./run-lease.ts";
import { RunStream } from "./run-stream.ts";

type ToolCall = Extract<RunEvent, { type: "tool-call" }>;

/** What a driven run saw: every event in order, the tool calls it ran, when each event arrived. */
export interface CrossInstanceRun {
  runId: string;
  seen: RunEvent[];
  executed: string[];
  /** How many times the stream was reattached (on another instance). */
  reattached: number;
}

/** True for what a dying server does to an open request (reset socket, refused connection). */
function connectionLost(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === "AbortError");
}

/**
 * Posts a result to the first instance that takes it (one that is down or not ready, 503, is
 * skipped); returns the status. Gives up after `timeoutMs`.
 */
export async function postToAnyInstance(
  clients: CoauthorClient[],
  call: ToolCall,
  result: unknown,
  timeoutMs = 60_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const client = clients[attempt % clients.length] as CoauthorClient;
    try {
      const response = await client.callback({
        hookToken: call.hookToken,
        toolCallId: call.toolCallId,
        result,
      });
      await response.arrayBuffer();
      if (response.status !== 503) return response.status;
    } catch (error) {
      if (!connectionLost(error)) throw error;
    }
    if (Date.now() > deadline) throw new Error(`no instance took the result of ${call.toolCallId}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Follows `first` (an open stream of the run) to the run's last event. When the stream breaks,
 * reattaches with `Last-Event-ID` on the next instance in `clients` that answers. Fails if a tool
 * call comes twice or an event id is skipped or repeated.
 */
export async function followAcrossInstances(
  clients: CoauthorClient[],
  first: RunStream,
  editor: LexicalEditor,
  options: { onEvent?: (event: RunEvent) => Promise<void> | void; timeoutMs?: number } = {},
): Promise<CrossInstanceRun> {
  const run: CrossInstanceRun = { runId: first.runId, seen: [], executed: [], reattached: 0 };
  const lease = HeldRunLease.hold(clients, run.runId);
  try {
    return await followToEnd(clients, first, editor, run, options);
  } finally {
    await lease.release();
  }
}

async function followToEnd(
  clients: CoauthorClient[],
  first: RunStream,
  editor: LexicalEditor,
  run: CrossInstanceRun,
  options: { onEvent?: (event: RunEvent) => Promise<void> | void; timeoutMs?: number },
): Promise<CrossInstanceRun> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let stream: RunStream | null = first;
  let next = 0;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`run ${run.runId} did not end (${run.seen.length} events)`);
    if (!stream) {
      stream = await attachAnywhere(clients, run.runId, run.seen.at(-1)?.id, next++);
      if (!stream) continue;
      run.reattached++;
    }
    let event: RunEvent | null;
    try {
      event = await stream.next();
    } catch (error) {
      if (!connectionLost(error)) throw error;
      event = null;
    }
    if (!event) {
      stream.drop();
      stream = null;
      continue;
    }
    const expected = (run.seen.at(-1)?.id ?? -1) + 1;
    if (event.id !== expected) throw new Error(`event ${event.id} came where ${expected} was due`);
    run.seen.push(event);
    await options.onEvent?.(event);
    if (isTerminalEvent(event)) return run;
    if (event.type !== "tool-call") continue;
    if (run.executed.includes(event.toolCallId)) throw new Error(`tool call ${event.toolCallId} came twice`);
    run.executed.push(event.toolCallId);
    const result = await runEditorTool(editor, event.toolName, event.input);
    const status = await postToAnyInstance(clients, event, result);
    if (status !== 204) throw new Error(`the result of ${event.toolCallId} was answered ${status}`);
  }
}

/** Reattaches after event `lastId` with `Last-Event-ID` on instance `turn` (round robin), or null. */
async function attachAnywhere(
  clients: CoauthorClient[],
  runId: string,
  lastId: number | undefined,
  turn: number,
): Promise<RunStream | null> {
  const client = clients[turn % clients.length] as CoauthorClient;
  try {
    const stream = await RunStream.attachAfter(client, runId, lastId);
    if (stream.status === 200) return stream;
    stream.drop();
    if (stream.status !== 503) throw new Error(`reattaching ${runId} was answered ${stream.status}`);
  } catch (error) {
    if (!connectionLost(error)) throw error;
  }
  await new Promise((done) => setTimeout(done, 100));
  return null;
}
