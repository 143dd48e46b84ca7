import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { log } from "@coauthor/agent-workflow";
import { ACCESS_CHANGED, COLLAB_PATH } from "@coauthor/types";
import { Redis } from "@hocuspocus/extension-redis";
import { type Extension, Hocuspocus } from "@hocuspocus/server";
import IORedis from "ioredis";
import { WebSocketServer } from "ws";
import { z } from "zod";
import { env } from "@/env";
import { sessionFromHeaders } from "@/server/auth/session";
import { allowedOrigins } from "@/server/http/same-origin";
import { observeCollab } from "@/server/observability/collab-metrics";
import { redisName } from "@/server/redis-names";
import { type SocketContext, storageExtension } from "./storage-extension";
import { stopSyncServer } from "./sync-shutdown";
import { replaySpool } from "./unstored-spool";
import { appendUpdate } from "./update-log";

/** Largest WebSocket message accepted (a bigger one closes the socket with 1009): a paste of a long chapter fits. */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

type SyncServer = {
  hocuspocus: Hocuspocus<SocketContext>;
  /** Asks the other instances to close the sockets a request names (no-op without Redis). */
  relayClose: (request: { documentId?: string; userId?: string }) => void;
  /** Takes an HTTP upgrade on `COLLAB_PATH`: checks Origin and session, then hands the socket to Hocuspocus. */
  handleUpgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Stops cleanly (SIGTERM): copies disconnected, what is held stored or left for the next start. */
  shutdown: () => Promise<void>;
};

function refuse(socket: Duplex, status: 401 | 403 | 503, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** With REDIS_URL, Hocuspocus' Redis extension relays updates and awareness between instances. */
function redisRelay(): Extension[] {
  const url = env.REDIS_URL;
  if (!url) return [];
  return [new Redis({ prefix: redisName("hocuspocus"), createClient: () => new IORedis(url) })];
}

/** The Redis channel on which instances ask each other to close sockets (role changes, deletion, sign-out). */
const CLOSE_CHANNEL = "coauthor:collab:close";
const closeRequestSchema = z.object({
  from: z.string(),
  documentId: z.string().optional(),
  userId: z.string().optional(),
});
type CloseRequest = z.infer<typeof closeRequestSchema>;

/**
 * Socket closing across instances: a request made on one instance closes the sockets it names
 * on every instance (with REDIS_URL; without it there is only this one).
 */
function closeRelay(
  onRequest: (request: CloseRequest) => void,
): (request: Omit<CloseRequest, "from">) => void {
  const url = env.REDIS_URL;
  if (!url) return () => undefined;
  const instance = crypto.randomUUID();
  const channel = redisName(CLOSE_CHANNEL);
  const publisher = new IORedis(url);
  const subscriber = new IORedis(url);
  for (const client of [publisher, subscriber]) {
    client.on("error", (error) => log.error("collab: redis", { error }));
  }
  subscriber.subscribe(channel).catch((error: unknown) => log.error("collab: redis subscribe", { error }));
  subscriber.on("message", (_channel, message) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      log.warn("collab: an unreadable close request on redis", { message: message.slice(0, 200) });
      return;
    }
    const request = closeRequestSchema.safeParse(parsed);
    if (request.success && request.data.from !== instance) onRequest(request.data);
  });
  return (request) => {
    publisher
      .publish(channel, JSON.stringify({ ...request, from: instance }))
      .catch((error: unknown) => log.error("collab: redis publish", { error }));
  };
}

function createSyncServer(): SyncServer {
  const storage = storageExtension();
  const hocuspocus = new Hocuspocus<SocketContext>({
    name: "coauthor",
    quiet: true,
    debounce: 2_000,
    maxDebounce: 10_000,
    extensions: [storage, ...redisRelay()],
  });
  // What a stop could not store (the database unreachable throughout its grace) is stored now.
  replaySpool({ append: appendUpdate }).catch((error: unknown) =>
    log.error("collab: could not read the updates a previous stop left unstored", { error }),
  );
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  observeCollab(hocuspocus, sockets);

  async function accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const origin = request.headers.origin;
    if (!origin || !allowedOrigins(request.headers.host).includes(origin))
      return refuse(socket, 403, "Forbidden");
    const headers = headersOf(request);
    const session = await sessionFromHeaders(headers);
    if (!session) return refuse(socket, 401, "Unauthorized");
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const url = `http://${request.headers.host ?? "localhost"}${request.url ?? COLLAB_PATH}`;
      const client = hocuspocus.handleConnection(ws, new Request(url, { headers }), {
        userId: session.userId,
      });
      ws.on("message", (data: Buffer) => client.handleMessage(new Uint8Array(data)));
      ws.on("close", (code, reason) => client.handleClose({ code, reason: reason.toString() }));
      ws.on("error", (error) => log.warn("collab: socket error", { userId: session.userId, error }));
    });
  }

  const relayClose = closeRelay(({ documentId, userId }) =>
    closeLocalSockets(hocuspocus, documentId, userId),
  );
  return {
    hocuspocus,
    relayClose,
    shutdown: () => stopSyncServer(hocuspocus, storage),
    handleUpgrade: (request, socket, head) => {
      accept(request, socket, head).catch((error: unknown) => {
        log.error("collab: upgrade failed", { error });
        refuse(socket, 503, "Service Unavailable");
      });
    },
  };
}

const KEY = Symbol.for("coauthor.collab");
type Holder = typeof globalThis & { [KEY]?: SyncServer };

/**
 * The process-wide sync server (one across Next bundles; the Node server in
 * `server.mjs` finds its upgrade handler under the same global key).
 */
export function getSyncServer(): SyncServer {
  const holder = globalThis as Holder;
  holder[KEY] ??= createSyncServer();
  return holder[KEY];
}

/** Closes this instance's sockets on `documentId` (every document when absent), of `userId` only when given. */
function closeLocalSockets(
  hocuspocus: Hocuspocus<SocketContext>,
  documentId?: string,
  userId?: string,
): void {
  const documents =
    documentId === undefined ? [...hocuspocus.documents.values()] : [hocuspocus.documents.get(documentId)];
  for (const document of documents) {
    for (const connection of [...(document?.connections.keys() ?? [])]) {
      if (userId === undefined || connection.context.userId === userId) {
        connection.close({ code: 4403, reason: ACCESS_CHANGED });
      }
    }
  }
}

/**
 * Closes the sockets open on a document (all of them, or only `userId`'s), on every instance:
 * after a member is removed or demoted, or the document is deleted. A client that reconnects is
 * checked again.
 */
export function closeDocumentSockets(documentId: string, userId?: string): void {
  const server = getSyncServer();
  closeLocalSockets(server.hocuspocus, documentId, userId);
  server.relayClose({ documentId, userId });
}

/** Closes every socket of a user, on every document and instance (sign out everywhere). */
export function closeUserSockets(userId: string): void {
  const server = getSyncServer();
  closeLocalSockets(server.hocuspocus, undefined, userId);
  server.relayClose({ userId });
}

/** The live Yjs document if this instance has it open, else null. */
export function liveDocument(documentId: string) {
  return getSyncServer().hocuspocus.documents.get(documentId) ?? null;
}
