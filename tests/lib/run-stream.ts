// Reading a run's SSE stream in pieces: drop the connection mid-way, reattach
// from an event id, collect what a client would see.
import { runEditorTool } from "@coauthor/tools";
import { type HookTokenClaims, hookTokenClaimsSchema, isTerminalEvent, type RunEvent } from "@coauthor/types";
import { createRunEventParser } from "@coauthor/types/sse";
import { $getRoot, type LexicalEditor } from "lexical";
import type { CoauthorClient } from "./coauthor-client.ts";
import { HeldRunLease } from "./run-lease.ts";

/** An open run stream (start or reattach) whose events are read one at a time. */
export class RunStream {
  readonly runId: string;
  readonly status: number;
  readonly headers: Headers;
  private readonly controller: AbortController;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | null;
  private readonly queue: RunEvent[] = [];
  private readonly decoder = new TextDecoder();
  private readonly parser = createRunEventParser({
    onEvent: (event) => this.queue.push(event),
    onInvalid: (error) => {
      throw new Error(`invalid frame: ${error.message}`);
    },
  });
  /** Whether the server ended the stream. */
  ended = false;
  /** The heartbeats the stream carried (`next` skips them). */
  readonly heartbeats: RunEvent[] = [];

  constructor(response: Response, runId: string, controller: AbortController) {
    this.runId = runId;
    this.status = response.status;
    this.headers = response.headers;
    this.controller = controller;
    this.reader = response.ok && response.body ? response.body.getReader() : null;
  }

  /** Starts an agent run. */
  static async start(
    client: CoauthorClient,
    documentId: string,
    prompt: string,
    /** More of the request: a `recipeId`, a `continueRunId`. */
    extra: Record<string, unknown> = {},
  ): Promise<RunStream> {
    const controller = new AbortController();
    const response = await client.fetch("/api/llm/agent", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...extra, documentId, prompt, mode: "agent" }),
      signal: controller.signal,
    });
    return new RunStream(response, response.headers.get("x-run-id") ?? "", controller);
  }

  /** Reattaches to a run from event id `from`. */
  static async attach(client: CoauthorClient, runId: string, from: number): Promise<RunStream> {
    const controller = new AbortController();
    const response = await client.fetch(`/api/llm/agent/${runId}/stream?from=${from}`, {
      signal: controller.signal,
    });
    return new RunStream(response, runId, controller);
  }

  /** Reattaches after event `lastId` the way a browser's EventSource does (`Last-Event-ID`; none: from 0). */
  static async attachAfter(
    client: CoauthorClient,
    runId: string,
    lastId: number | undefined,
  ): Promise<RunStream> {
    const controller = new AbortController();
    const response = await client.fetch(`/api/llm/agent/${runId}/stream`, {
      headers: lastId === undefined ? {} : { "last-event-id": String(lastId) },
      signal: controller.signal,
    });
    return new RunStream(response, runId, controller);
  }

  /** The next event, heartbeats included, or null when the stream ended. */
  async nextFrame(): Promise<RunEvent | null> {
    for (;;) {
      const event = this.queue.shift();
      if (event) return event;
      if (!this.reader || this.ended) return null;
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        return null;
      }
      this.parser.feed(this.decoder.decode(value, { stream: true }));
    }
  }

  /** The next event (heartbeats skipped and kept in `heartbeats`), or null when the stream ended. */
  async next(): Promise<RunEvent | null> {
    for (let event = await this.nextFrame(); event; event = await this.nextFrame()) {
      if (event.type !== "heartbeat") return event;
      this.heartbeats.push(event);
    }
    return null;
  }

  /** Reads events until `stop` says so (returns the events, the stopping one last) or the stream ends. */
  async readUntil(stop: (event: RunEvent) => boolean): Promise<RunEvent[]> {
    const events: RunEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) {
      events.push(event);
      if (stop(event)) break;
    }
    return events;
  }

  /** Drops the connection (like a closed tab). */
  drop(): void {
    this.controller.abort();
  }
}

/** True for the last frame of a run. */
export { isTerminalEvent as isTerminal } from "@coauthor/types";

/** The ids of `events` are exactly 0, 1, 2, … (no gap, no duplicate). */
export function idsOf(events: RunEvent[]): number[] {
  return events.map((event) => event.id);
}

/** `[0, 1, …, n - 1]`. */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * Posts a tool result like the panel does: retrying while the server cannot be reached (it is
 * restarting) or answers 503 (the run is not ready for the result yet).
 */
export async function postResult(
  client: CoauthorClient,
  call: Extract<RunEvent, { type: "tool-call" }>,
  result: unknown,
  timeoutMs = 30_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await client.callback({
        hookToken: call.hookToken,
        toolCallId: call.toolCallId,
        result,
      });
      await response.arrayBuffer();
      if (response.status !== 503 || Date.now() > deadline) return response.status;
    } catch (error) {
      if (!(error instanceof TypeError) || Date.now() > deadline) throw error;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** A run driven to its end like the panel drives it: each tool call run on `editor`, its result posted. */
export async function driveRun(
  client: CoauthorClient,
  documentId: string,
  prompt: string,
  editor: LexicalEditor,
): Promise<{ runId: string; events: RunEvent[]; callbackStatuses: number[] }> {
  const stream = await RunStream.start(client, documentId, prompt);
  if (stream.status !== 200) throw new Error(`run not started: HTTP ${stream.status}`);
  const events: RunEvent[] = [];
  const callbackStatuses: number[] = [];
  const lease = HeldRunLease.hold(client, stream.runId);
  try {
    for (let event = await stream.next(); event; event = await stream.next()) {
      events.push(event);
      if (event.type === "tool-call") {
        callbackStatuses.push(
          await postResult(client, event, await runEditorTool(editor, event.toolName, event.input)),
        );
      }
      if (isTerminalEvent(event)) break;
    }
  } finally {
    await lease.release();
  }
  return { runId: stream.runId, events, callbackStatuses };
}

/** The claims of a hook token (payload only: the server checks the signature). */
export function tokenClaims(token: string): HookTokenClaims {
  const payload = token.split(".")[1] ?? "";
  return hookTokenClaimsSchema.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
}

/** The text of each top-level block of a headless editor, in order. */
export function blockTexts(editor: LexicalEditor): string[] {
  return editor.getEditorState().read(() =>
    $getRoot()
      .getChildren()
      .map((node) => node.getTextContent()),
  );
}

/**
 * Reads `stream` to its last event as a browser would: runs each tool call on `editor` and posts
 * its result, failing if a call comes that already ran (`executed`). Every event read goes into
 * `seen`; returns the last one.
 */
export async function answerToEnd(
  client: CoauthorClient,
  stream: RunStream,
  editor: LexicalEditor,
  executed: string[],
  seen: RunEvent[],
): Promise<RunEvent> {
  const lease = HeldRunLease.hold(client, stream.runId);
  try {
    for (;;) {
      const event = await stream.next();
      if (!event) throw new Error("the stream ended without a last frame");
      seen.push(event);
      if (isTerminalEvent(event)) return event;
      if (event.type !== "tool-call") continue;
      if (executed.includes(event.toolCallId)) throw new Error(`tool call ${event.toolCallId} came twice`);
      executed.push(event.toolCallId);
      const status = await postResult(
        client,
        event,
        await runEditorTool(editor, event.toolName, event.input),
      );
      if (status !== 204) throw new Error(`the result of ${event.toolCallId} was answered ${status}`);
    }
  } finally {
    await lease.release();
  }
}
