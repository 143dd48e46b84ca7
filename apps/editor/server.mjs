#!/usr/bin/env node
// One Node server for the whole app: Next.js answers HTTP, and WebSocket
// upgrades on /collab go to the Yjs sync server (Hocuspocus), which lives in
// the Next bundle (src/server/collab/sync-server.ts) so it shares the app's
// database, auth and configuration. Every other upgrade (dev reloading) goes to Next.
import { createServer } from "node:http";
import next from "next";

// The same path as COLLAB_PATH in packages/types (this file runs untranspiled, before Next).
const COLLAB_PATH = "/collab";
const SYNC_SERVER = Symbol.for("coauthor.collab");
// Routes answered without Next's router, registered by the Next bundle at start
// (src/server/http/direct-routes.ts): `<METHOD> <path>` → a Node request handler. Not under
// `next dev`, which recompiles a route as it changes.
const DIRECT_ROUTES = Symbol.for("coauthor.direct-routes");

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? "3000");
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev, hostname, port, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare();
const nextUpgrade = app.getUpgradeHandler();

// The address of the socket a request came on, for the app's client-address rule (TRUST_PROXY,
// src/server/http/client-address.ts): set here on every request, over whatever the client sent.
const SOCKET_ADDRESS_HEADER = "x-coauthor-socket-address";
// Whether the request came through a proxy (it carried a forwarding header), for the metrics
// endpoint's loopback rule: Next fills X-Forwarded-For in itself, so the route cannot tell.
const RELAYED_HEADER = "x-coauthor-relayed";
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"];

/**
 * Whether the request's path is well-formed percent-encoded UTF-8. Next decodes a route's dynamic
 * segments before any route or the proxy runs, and answers 500 to one that is not (`%FF`, a lone
 * surrogate's bytes `%ED%A0%80`); such a path names nothing, so it gets a 400 here.
 */
function decodablePath(url) {
  try {
    decodeURIComponent(url.split("?")[0]);
    return true;
  } catch (error) {
    if (error instanceof URIError) return false;
    throw error;
  }
}

// The API's error shape and the headers every response of the app carries (next.config.ts).
const UNDECODABLE_PATH = JSON.stringify({
  code: "bad_request:path",
  message: "the path is not valid percent-encoded UTF-8",
});
const UNDECODABLE_PATH_HEADERS = {
  "content-type": "application/json",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

const server = createServer((request, response) => {
  if (!decodablePath(request.url ?? "/")) {
    response.writeHead(400, UNDECODABLE_PATH_HEADERS).end(UNDECODABLE_PATH);
    return;
  }
  request.headers[SOCKET_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
  request.headers[RELAYED_HEADER] = FORWARDING_HEADERS.some((name) => name in request.headers) ? "1" : "0";
  const direct = dev
    ? undefined
    : globalThis[DIRECT_ROUTES]?.get(`${request.method} ${(request.url ?? "/").split("?")[0]}`);
  if (!direct) {
    handle(request, response);
    return;
  }
  // It answers every failure of the route itself; this is for one of its own (its log line).
  direct(request, response).catch((error) => {
    process.stderr.write(
      `${JSON.stringify({ level: "error", msg: "direct route failed", error: String(error) })}\n`,
    );
    response.destroy();
  });
});
server.on("upgrade", (request, socket, head) => {
  const path = (request.url ?? "").split("?")[0];
  if (path !== COLLAB_PATH) {
    nextUpgrade(request, socket, head);
    return;
  }
  // Created inside the Next bundle when the server starts (src/instrumentation.ts).
  const sync = globalThis[SYNC_SERVER];
  if (sync) sync.handleUpgrade(request, socket, head);
  else socket.end("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
});
server.listen(port, hostname, () => {
  process.stdout.write(`ready: listening on http://${hostname}:${port} (sync socket at ${COLLAB_PATH})\n`);
});

// Stored updates are appended as they arrive. On a clean stop the sync server disconnects its
// copies (they reconnect elsewhere), runs the pending debounced stores, and stores what it holds
// unstored, retrying for up to its grace (10 s: a database outage may end within it); what is left
// then waits in the data folder for the next start (src/server/collab/sync-shutdown.ts).
// SHUTDOWN_LIMIT_MS bounds the whole stop whatever happens, below an orchestrator's usual 30 s.
const SHUTDOWN_LIMIT_MS = 15_000;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    setTimeout(() => process.exit(0), SHUTDOWN_LIMIT_MS).unref();
    Promise.resolve(globalThis[SYNC_SERVER]?.shutdown()).then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(
          `${JSON.stringify({ level: "error", msg: "collab: the stop failed", error: String(error) })}\n`,
        );
        process.exit(1);
      },
    );
  });
}
