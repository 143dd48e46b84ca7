// Test helper (never imported by production code): what every protocol fake
// shares. A fake is a node:http server on 127.0.0.1 answering one scripted reply
// per request, in the wire format of one provider's API; the protocol modules
// beside this one only render a reply into that format.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One model answer, protocol-neutral: text in pieces, then tool calls whose input JSON comes in pieces. */
export interface FakeTurn {
  text?: string[];
  toolCalls?: { id: string; name: string; argumentPieces: string[] }[];
  usage?: { input: number; output: number };
}

/** A failure as the provider documents it: the HTTP status, headers and error body of its API. */
export type FakeFailure =
  | { kind: "bad-key" }
  | { kind: "rate-limit"; retryAfterSeconds?: number }
  | { kind: "context-too-long" }
  | { kind: "overloaded" }
  /** The model declines (content filter / refusal): an HTTP 200 whose answer says so. */
  | { kind: "refused" };

/** What the fake does with one request. */
export type FakeReply =
  | { kind: "turn"; turn: FakeTurn }
  | { kind: "failure"; failure: FakeFailure }
  /** Streams `text`, then goes silent with the connection open (a stalled model). */
  | { kind: "stall"; text: string[] };

/** A request the fake received. */
export interface FakeRequest {
  at: number;
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  streamed: boolean;
}

/** An HTTP answer that is not a stream. */
export interface PlainAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** How one protocol routes and renders. */
export interface FakeProtocol {
  /** The provider's `baseURL` for a fake at `origin` (e.g. `${origin}/v1`). */
  baseURL: (origin: string) => string;
  /** Null when the path is not one of this protocol's endpoints; else whether the client asked to stream. */
  route: (path: string, body: Record<string, unknown>) => { streamed: boolean } | null;
  /** The SSE `event:`/`data:` records of a streamed turn, in order. */
  stream: (turn: FakeTurn, request: FakeRequest) => SseRecord[];
  /** The JSON body of a non-streamed turn. */
  complete: (turn: FakeTurn, request: FakeRequest) => unknown;
  /** The documented answer to a failure: an HTTP error, or (a refusal) a 200 stream / body saying so. */
  failure: (failure: FakeFailure, request: FakeRequest) => PlainAnswer | RefusalAnswer;
}

/** A refusal arrives as a normal answer: the stream (streamed request) or the body (otherwise). */
export interface RefusalAnswer {
  records: SseRecord[];
  body: unknown;
}

/** One server-sent event: `event:` (when the protocol names events) and its JSON `data:`. */
export interface SseRecord {
  event?: string;
  data: unknown;
}

/** A running fake. */
export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** What to pass as the provider's `baseURL`. */
  baseURL: string;
  requests: FakeRequest[];
  /** Queues replies; each request takes the next (a scripted 500 when none is left). */
  enqueue: (...replies: FakeReply[]) => void;
  /**
   * Queues replies for requests that do not stream (structured output: the planner's, a
   * reflection's), which take these first: a run asks for its first turn while the planner
   * decides, so the two requests arrive in either order.
   */
  enqueueStructured: (...replies: FakeReply[]) => void;
  close: () => Promise<void>;
}

/** Serializes one SSE record. */
export function sseText(record: SseRecord): string {
  const event = record.event ? `event: ${record.event}\n` : "";
  return `${event}data: ${typeof record.data === "string" ? record.data : JSON.stringify(record.data)}\n\n`;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const parsed: unknown = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}");
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error("request body is not a JSON object");
  }
  return parsed as Record<string, unknown>;
}

function sendPlain(res: ServerResponse, answer: PlainAnswer): void {
  res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

const STALL_MARKER = "<<fake: the stream stalls here>>";

/** Starts a fake speaking `protocol` on a free port of 127.0.0.1. */
export async function startFakeProvider(protocol: FakeProtocol): Promise<FakeProviderServer> {
  const queue: FakeReply[] = [];
  const structuredQueue: FakeReply[] = [];
  const requests: FakeRequest[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJson(req);
    const path = req.url ?? "";
    const routed = req.method === "POST" ? protocol.route(path, body) : null;
    if (!routed) return sendPlain(res, { status: 404, body: { error: `no route ${req.method} ${path}` } });
    const request = { at: Date.now(), path, headers: req.headers, body, streamed: routed.streamed };
    requests.push(request);
    const reply = (routed.streamed ? undefined : structuredQueue.shift()) ?? queue.shift();
    if (!reply) return sendPlain(res, { status: 500, body: { error: "fake: no scripted reply left" } });
    if (reply.kind === "failure") {
      const answer = protocol.failure(reply.failure, request);
      if (!("records" in answer)) return sendPlain(res, answer);
      if (!routed.streamed) return sendPlain(res, { status: 200, body: answer.body });
      return writeStream(res, answer.records);
    }
    if (reply.kind === "stall") {
      // The turn rendered with one more piece, cut where that piece would go: the stream so far,
      // then silence with the socket open.
      const records = protocol.stream({ text: [...reply.text, STALL_MARKER] }, request);
      const cut = records.findIndex((r) => JSON.stringify(r.data).includes(STALL_MARKER));
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const record of records.slice(0, cut)) res.write(sseText(record));
      return;
    }
    if (!routed.streamed)
      return sendPlain(res, { status: 200, body: protocol.complete(reply.turn, request) });
    return writeStream(res, protocol.stream(reply.turn, request));
  };

  function writeStream(res: ServerResponse, records: SseRecord[]): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const record of records) res.write(sseText(record));
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendPlain(res, { status: 400, body: { error: message } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseURL: protocol.baseURL(origin),
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    enqueueStructured: (...replies) => {
      structuredQueue.push(...replies);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** The whole input JSON of a tool call (its pieces joined). */
export function argumentsOf(call: { argumentPieces: string[] }): string {
  return call.argumentPieces.join("");
}

/** `retry-after` (seconds) when the failure names a wait. */
export function retryAfterHeaders(failure: FakeFailure): Record<string, string> {
  return failure.kind === "rate-limit" && failure.retryAfterSeconds !== undefined
    ? { "retry-after": String(failure.retryAfterSeconds) }
    : {};
}
