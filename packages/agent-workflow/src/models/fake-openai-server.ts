// Test helper (never imported by production code): a local server that speaks
// the OpenAI chat-completions streaming protocol, scripted one response per
// request, so the real OpenAI-compatible provider runs without the network.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One piece of a streamed response, in the order the server sends it. */
export type FakeChunk =
  | { type: "text"; text: string }
  /** A `tool_calls` delta: send `id`/`name` on the first piece, `arguments` split over the rest. */
  | { type: "tool-call"; index: number; id?: string; name?: string; arguments?: string }
  | { type: "finish"; reason: "stop" | "tool_calls" | "length" }
  | { type: "usage"; promptTokens: number; completionTokens: number }
  /** A `data:` line that is not JSON. */
  | { type: "malformed"; data: string }
  /** Destroys the socket here, mid-stream (no `[DONE]`). */
  | { type: "reset" };

/** What the server does with one request. */
export type FakeResponse =
  | { kind: "stream"; chunks: FakeChunk[] }
  /** An HTTP error; `retryAfterMs` sets `retry-after-ms` and `retry-after` (seconds, rounded up). */
  | { kind: "error"; status: number; message: string; retryAfterMs?: number };

/** A request the server received. */
export interface RecordedRequest {
  at: number;
  path: string;
  authorization: string | undefined;
  body: ChatRequestBody;
}

/** The parts of a chat-completions request body the tests look at. */
export interface ChatRequestBody {
  model?: string;
  stream?: boolean;
  messages: {
    role: string;
    content?: unknown;
    tool_call_id?: string;
    tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  }[];
  tools?: { type: string; function: { name: string } }[];
}

/** A running fake server. */
export interface FakeOpenAIServer {
  /** `http://127.0.0.1:<port>` (append `/v1` for a provider's baseURL). */
  url: string;
  requests: RecordedRequest[];
  /** Queues responses; each request takes the next one (a 500 when none is left). */
  enqueue: (...responses: FakeResponse[]) => void;
  /**
   * Non-streamed requests (the planner's and reflection's structured output)
   * are answered from their own queue: message contents in order; when none
   * is left, `{"goal":"","steps":[]}` (no plan) with zero usage.
   */
  enqueueStructured: (...contents: (string | Extract<FakeResponse, { kind: "error" }>)[]) => void;
  structuredRequests: RecordedRequest[];
  close: () => Promise<void>;
}

function chunkBody(chunk: FakeChunk, model: string): unknown {
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model };
  const choice = (delta: unknown, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  switch (chunk.type) {
    case "text":
      return choice({ role: "assistant", content: chunk.text });
    case "tool-call": {
      const fn: { name?: string; arguments?: string } = {};
      if (chunk.name !== undefined) fn.name = chunk.name;
      if (chunk.arguments !== undefined) fn.arguments = chunk.arguments;
      const call = {
        index: chunk.index,
        ...(chunk.id ? { id: chunk.id, type: "function" } : {}),
        function: fn,
      };
      return choice({ tool_calls: [call] });
    }
    case "finish":
      return choice({}, chunk.reason);
    case "usage":
      return {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: chunk.promptTokens,
          completion_tokens: chunk.completionTokens,
          total_tokens: chunk.promptTokens + chunk.completionTokens,
        },
      };
    default:
      return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<ChatRequestBody> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const parsed: unknown = JSON.parse(Buffer.concat(parts).toString("utf8"));
  if (typeof parsed !== "object" || parsed === null || !Array.isArray((parsed as ChatRequestBody).messages))
    throw new Error("request body has no messages");
  return parsed as ChatRequestBody;
}

function sendError(res: ServerResponse, response: Extract<FakeResponse, { kind: "error" }>): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (response.retryAfterMs !== undefined) {
    headers["retry-after-ms"] = String(response.retryAfterMs);
    headers["retry-after"] = String(Math.ceil(response.retryAfterMs / 1000));
  }
  res.writeHead(response.status, headers);
  res.end(
    JSON.stringify({ error: { message: response.message, type: "fake_error", code: response.status } }),
  );
}

/** Starts a fake chat-completions server on 127.0.0.1 (a free port). */
export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const structuredQueue: (string | Extract<FakeResponse, { kind: "error" }>)[] = [];
  const structuredRequests: RecordedRequest[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      sendError(res, { kind: "error", status: 404, message: `no route ${req.method} ${req.url}` });
      return;
    }
    const body = await readBody(req);
    const recorded = { at: Date.now(), path: req.url, authorization: req.headers.authorization, body };
    if (body.stream !== true) {
      structuredRequests.push(recorded);
      const answer = structuredQueue.shift() ?? '{"goal":"","steps":[]}';
      if (typeof answer !== "string") return sendError(res, answer);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 0,
          model: body.model ?? "",
          choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
          usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        }),
      );
      return;
    }
    requests.push(recorded);
    const response = queue.shift() ?? {
      kind: "error",
      status: 500,
      message: "fake server: no scripted response left",
    };
    if (response.kind === "error") return sendError(res, response);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const chunk of response.chunks) {
      if (chunk.type === "reset") {
        // Let the bytes already written reach the client, then cut the connection.
        await new Promise((resolve) => setTimeout(resolve, 20));
        res.socket?.destroy();
        return;
      }
      const data =
        chunk.type === "malformed" ? chunk.data : JSON.stringify(chunkBody(chunk, body.model ?? ""));
      res.write(`data: ${data}\n\n`);
    }
    res.end("data: [DONE]\n\n");
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendError(res, { kind: "error", status: 400, message });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    structuredRequests,
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    enqueueStructured: (...contents) => {
      structuredQueue.push(...contents);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** A streamed turn: `text` in the given pieces, then tool calls whose arguments come in pieces, then usage. */
export function streamedTurn(turn: {
  text?: string[];
  toolCalls?: { id: string; name: string; argumentPieces: string[] }[];
  usage?: { promptTokens: number; completionTokens: number };
}): FakeResponse {
  const chunks: FakeChunk[] = (turn.text ?? []).map((text) => ({ type: "text", text }));
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    chunks.push({ type: "tool-call", index, id: call.id, name: call.name, arguments: "" });
    for (const piece of call.argumentPieces) chunks.push({ type: "tool-call", index, arguments: piece });
  }
  chunks.push({ type: "finish", reason: turn.toolCalls?.length ? "tool_calls" : "stop" });
  if (turn.usage) chunks.push({ type: "usage", ...turn.usage });
  return { kind: "stream", chunks };
}
