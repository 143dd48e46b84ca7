import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { log } from "@coauthor/agent-workflow";
import { sendsStrictTransportSecurity } from "./content-security-policy";
import { apiError } from "./errors";
import { NON_DOCUMENT_POLICY, STATIC_SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "./security-headers";

// Routes server.mjs hands to their handler itself, past Next's router. Next's request handling
// costs ~1.3 ms of server CPU per request (route matching, its request and response adapters,
// its own spans), which a tool result pays on every round trip of every run, and the Postgres
// world's engine on every delivery. Only routes with an exact path and no page around them belong
// here; the handler is the route module's own export, so Next serves the same code when a request
// reaches it another way (`next dev`, a trailing slash).

/** A route handler, as a Next route module exports it. */
export type RouteHandler = (request: Request) => Promise<Response>;
/** What server.mjs calls for a request to a direct route; it never rejects. */
export type NodeRouteHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;
/** `<METHOD> <path>`, the key server.mjs looks a request up by. */
export type RouteKey = `${"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} /${string}`;

// Read by server.mjs, which runs outside the Next bundle.
const DIRECT_ROUTES = Symbol.for("coauthor.direct-routes");
type Holder = typeof globalThis & { [DIRECT_ROUTES]?: Map<string, NodeRouteHandler> };

/**
 * Why a request's signal aborted, or its body failed: the client went away first. Named as Next
 * names it, which the workflow runtime recognises a client's disconnect by.
 */
class ResponseAborted extends Error {
  override readonly name = "ResponseAborted";
  constructor() {
    super("the client closed the connection");
  }
}

/** Routes server.mjs answers itself, by `<METHOD> <path>`. */
export type DirectRoutes = Partial<Record<RouteKey, RouteHandler>>;

/** Makes server.mjs answer these routes itself (replacing any registered before). */
export function serveDirectly(routes: DirectRoutes): void {
  const table = new Map<string, NodeRouteHandler>();
  for (const [key, handler] of Object.entries(routes))
    if (handler) table.set(key, nodeRouteHandler(key, handler));
  (globalThis as Holder)[DIRECT_ROUTES] = table;
}

/**
 * A Node request handler that runs `handler` on the request as a web `Request` and writes its
 * answer with the headers next.config.ts gives every API response (and HSTS over HTTPS, as the
 * proxy gives the engine's routes). A handler that throws answers a 500 that says nothing of the
 * cause (logged), as Next's would.
 */
export function nodeRouteHandler(route: string, handler: RouteHandler): NodeRouteHandler {
  return async (incoming, outgoing) => {
    let request: Request;
    let drain: () => void;
    try {
      ({ request, drain } = webRequest(incoming, outgoing));
    } catch (error) {
      // Node's parser and the web Headers accept different header values: one only Node takes.
      const message = error instanceof Error ? error.message : String(error);
      await writeResponse(apiError(400, "bad_request:headers", message), outgoing);
      return;
    }
    let response: Response;
    try {
      response = await handler(request);
    } catch (error) {
      log.error("route failed", { route, error });
      response = apiError(500, "internal_error:server", "the server could not answer this request");
    }
    drain();
    await writeResponse(response, outgoing);
  };
}

/**
 * The web `Request` for a Node request (its signal aborts when the client goes away first), and
 * what drops the body the route left unread once it has answered.
 */
function webRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): { request: Request; drain: () => void } {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) controller.abort(new ResponseAborted());
  });
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // A streamed body needs `duplex`, which the DOM's RequestInit type does not know yet.
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  const body = hasBody ? bodyOf(incoming) : undefined;
  if (body) {
    init.body = body.stream;
    init.duplex = "half";
  }
  // The routes read no URL but their path; the Host header is the client's and may not parse.
  const request = new Request(new URL(incoming.url ?? "/", "http://localhost"), init);
  return { request, drain: body?.drain ?? (() => undefined) };
}

/**
 * The request's body as a web stream that reads from the socket only as the route reads it, and
 * `drain`, which drops what the route left unread (a body past its bound, or one it never needed)
 * as Node drops an unread body: the client gets the answer, not a connection reset while it is
 * still sending, and the connection stays usable. A client gone before the body ended fails the
 * read (Node may end such a request with neither `end` nor `error`).
 */
function bodyOf(incoming: IncomingMessage): { stream: ReadableStream<Uint8Array>; drain: () => void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let listening = false;
  let settled = false;
  const onData = (chunk: Buffer) => {
    incoming.pause();
    controller?.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  };
  const settle = (how: (stream: ReadableStreamDefaultController<Uint8Array>) => void) => {
    detach();
    if (settled || !controller) return;
    settled = true;
    how(controller);
  };
  const onEnd = () => settle((stream) => stream.close());
  const onError = (error: Error) => settle((stream) => stream.error(error));
  // After `end` nothing listens any more: a close heard here came before the body's end.
  const onClose = () => settle((stream) => stream.error(new ResponseAborted()));
  const detach = () => {
    incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
  };
  const drain = () => {
    detach();
    if (listening && !incoming.complete && !incoming.destroyed) incoming.resume();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(started) {
        controller = started;
      },
      pull() {
        if (!listening) {
          listening = true;
          if (incoming.destroyed) {
            onClose();
            return;
          }
          incoming.on("data", onData).once("end", onEnd).once("error", onError).once("close", onClose);
        }
        incoming.resume();
      },
      cancel: drain,
    },
    // Nothing is read ahead of the route: a body it never reads is left to Node, which drops it.
    { highWaterMark: 0 },
  );
  return { stream, drain };
}

/** Writes `response` out; a client gone mid-answer, or a body that failed while streaming, ends the socket. */
async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  try {
    await writeWhole(response, outgoing);
  } catch (error) {
    log.warn("a direct route's answer was not delivered", { error });
    outgoing.destroy();
  }
}

async function writeWhole(response: Response, outgoing: ServerResponse): Promise<void> {
  for (const { key, value } of STATIC_SECURITY_HEADERS) outgoing.setHeader(key, value);
  outgoing.setHeader("Content-Security-Policy", NON_DOCUMENT_POLICY);
  if (sendsStrictTransportSecurity())
    outgoing.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  for (const [name, value] of response.headers) if (name !== "set-cookie") outgoing.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader("Set-Cookie", cookies);
  outgoing.statusCode = response.status;
  if (!response.body) {
    outgoing.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream), outgoing);
}
