import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { log } from "@coauthor/agent-workflow";
import { ACCESS_CHANGED, COLLAB_PATH, type SaveStatus } from "@coauthor/types";
import { Redis } from "@hocuspocus/extension-redis";
import { type Extension, Hocuspocus, isTransactionOrigin } from "@hocuspocus/server";
import IORedis from "ioredis";
import { WebSocketServer } from "ws";
import { z } from "zod";
import { env } from "@/env";
import { roleAllows } from "@/server/auth/roles";
import { sessionFromHeaders } from "@/server/auth/session";
import { findDocumentAccess } from "@/server/documents";
import { allowedOrigins } from "@/server/http/same-origin";
import { countStoreFailure, observeCollab } from "@/server/observability/collab-metrics";
import { redisName } from "@/server/redis-names";
import { checkIncomingUpdate } from "./content-door";
import { checkStateLoads, keepLastGood, reportDamage, StateLoadError } from "./document-health";
import { DocumentSaves } from "./document-saves";
import { searchTextOf } from "./document-text";
import { RelayedUpdates } from "./relayed-updates";
import { loadStoredState } from "./stored-state";
import { type StorageStop, stopSyncServer } from "./sync-shutdown";
import { replaySpool } from "./unstored-spool";
import { appendUpdate, compactUpdateLog, touchDocument } from "./update-log";

/** Largest WebSocket message accepted (a bigger one closes the socket with 1009): a paste of a long chapter fits. */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/** Who a socket belongs to; set from the session cookie before the upgrade is accepted. */
export interface SocketContext {
  userId: string;
}

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

// y-protocols sync message types that carry document content (sync step 1 carries a state vector).
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/** Updates relayed from another instance through Redis (that instance stores them, and so does this one). */
function isRelayed(origin: unknown): boolean {
  return isTransactionOrigin(origin) && origin.source === "redis";
}

function saveStatusMessage(stored: boolean): string {
  return JSON.stringify({ type: "save-status", stored } satisfies SaveStatus);
}

/**
 * The storage and access rules, as a Hocuspocus extension:
 * - onConnect: the socket's user must be the owner or a member of the document; viewers get a
 *   read-only connection (Hocuspocus drops their document updates, whatever the client sends);
 * - beforeSync: content is checked at the door (content-door.ts): bytes that are not a Yjs update,
 *   or an update that breaks the content rule (a node type no editor knows, a forbidden control
 *   character, nesting deeper than the rule), close the connection with invalid-content and are
 *   never applied, broadcast or stored;
 * - onLoadDocument: the stored state once it loads (kept as the last good version), or an error
 *   (never an empty document in place of a failed load; a damaged one is reported, see document-health);
 * - onChange: every update is appended to the log as it arrives; an update relayed from another
 *   instance is stored here too, merged with the others within seconds (relayed-updates.ts): the
 *   instance that received it may die before its append lands;
 * - onStoreDocument (debounced): the log is compacted and the document marked as edited, with its
 *   plain text (home page search and snippet) and who sent the last update stored here;
 * - a failed store is never silent (document-saves.ts): it is retried until it succeeds, the copies
 *   connected here are told (a stateless save-status message: their indicator says "Not saved —
 *   retrying"; one that connects meanwhile is told at once), and the document stays in memory
 *   until its changes are stored.
 */
/** Told of every change a connection (or a server edit) of this instance makes to a document. */
type LocalChangeListener = (documentId: string, editorId?: string) => void;
const localChangeListeners = new Set<LocalChangeListener>();

/**
 * Calls `listener` on every change this instance's connections, or its own server edits, make to
 * a document (not those relayed from another instance: they are that instance's to report), with
 * the user who made it (none for a server edit). Returns the unsubscribe.
 */
export function onLocalChange(listener: LocalChangeListener): () => void {
  localChangeListeners.add(listener);
  return () => localChangeListeners.delete(listener);
}

function storageExtension(): Extension & StorageStop {
  /** Per open document, the user whose update this instance last stored (for "last edited by"). */
  const lastEditors = new Map<string, string>();
  /**
   * Open documents this instance took a change of since their last store: a store with nothing
   * new (a copy that only read, a server edit that was refused) marks nothing as edited.
   */
  const changedSinceStore = new Set<string>();
  let instance: Hocuspocus | null = null;
  const saves = new DocumentSaves({
    append: appendUpdate,
    countFailure: countStoreFailure,
    announce: (documentId, stored) => {
      const document = instance?.documents.get(documentId);
      if (!instance || !document) return;
      // This instance's connections only (broadcastStateless would go to every instance through
      // Redis): each instance stores the updates of the connections it holds, and says so to them.
      document.relayStateless(saveStatusMessage(stored));
      // Kept in memory while its changes were not stored (beforeUnloadDocument); unloaded now if nobody is on it.
      if (stored && document.getConnectionsCount() === 0) void instance.unloadDocument(document);
    },
  });
  const relayed = new RelayedUpdates({ store: (documentId, update) => saves.append(documentId, update) });
  return {
    async onConfigure(payload) {
      instance = payload.instance;
    },
    async onConnect({ context, documentName, connectionConfig }) {
      const { userId } = context as SocketContext;
      const access = await findDocumentAccess(userId, documentName);
      if (!access) throw new Error("forbidden: not a member of this document");
      connectionConfig.readOnly = !roleAllows(access.role, "edit");
    },
    async connected({ documentName, connection }) {
      if (saves.isFailing(documentName)) connection.sendStateless(saveStatusMessage(false));
    },
    async beforeSync({ type, payload, document, documentName }) {
      if (type !== SYNC_STEP_2 && type !== SYNC_UPDATE) return;
      checkIncomingUpdate(documentName, payload, document);
    },
    async onLoadDocument({ documentName }) {
      // A damaged state is refused with its reason (DOCUMENT_DAMAGED): the client stops retrying.
      const state = await loadStoredState(documentName);
      if (!state) throw new Error(`no document ${documentName}`);
      let checked: Awaited<ReturnType<typeof checkStateLoads>>;
      try {
        checked = await checkStateLoads(state);
      } catch (error) {
        if (error instanceof StateLoadError) throw await reportDamage(documentName, error);
        throw error;
      }
      // Checked, so the state every copy starts from is the document's last good version. A check
      // past its budget opens the document all the same (nobody is locked out of a large one).
      if (checked === "loads") await keepLastGood(documentName, state);
      else log.warn("collab: a state opened unchecked (its check ran out of time)", { documentName });
      return state;
    },
    async onChange({ documentName, update, transactionOrigin, context }) {
      if (isRelayed(transactionOrigin)) {
        relayed.add(documentName, update);
        return;
      }
      changedSinceStore.add(documentName);
      const { userId } = context as SocketContext;
      // Server-side changes (a restore) carry no socket context.
      const editorId = typeof userId === "string" ? userId : undefined;
      if (editorId !== undefined) lastEditors.set(documentName, editorId);
      for (const listener of localChangeListeners) listener(documentName, editorId);
      // After this turn's broadcast to the other copies (Hocuspocus flushes at the end of the
      // turn): the embedded database works on this thread and would hold the keystroke up.
      await new Promise((resolve) => setImmediate(resolve));
      await saves.append(documentName, update);
    },
    async onStoreDocument({ documentName, document }) {
      if (!changedSinceStore.delete(documentName)) return;
      const edit = {
        plainText: searchTextOf(documentName, document),
        editorId: lastEditors.get(documentName),
      };
      await saves.store(documentName, async () => {
        await Promise.all([compactUpdateLog(documentName), touchDocument(documentName, edit)]);
      });
    },
    async beforeUnloadDocument({ documentName }) {
      await relayed.flush(documentName);
      // Unloaded, its unstored changes would be gone from here (a copy that holds them sends them
      // again when it reconnects, but one that connects fresh would load what is stored).
      if (saves.isFailing(documentName))
        throw new Error(`document ${documentName} has changes not yet stored`);
    },
    async stop(deadline) {
      // Started, not awaited: the appends under way are the drain's to wait for, within the deadline.
      void relayed.flushAll();
      return saves.drain(deadline);
    },
    async afterUnloadDocument({ documentName }) {
      lastEditors.delete(documentName);
      changedSinceStore.delete(documentName);
    },
  };
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
