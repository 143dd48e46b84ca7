// A collaborator that speaks the sync protocol directly (no browser): a
// Hocuspocus provider over a Node WebSocket carrying a user's session cookie,
// bound to a headless document editor. Security, reliability and bench tests
// use it to do what a hostile or a very busy client would.

import { type BoundDocumentEditor, bindDocumentEditor, exportMarkdown } from "@coauthor/tools";
import { HocuspocusProvider, HocuspocusProviderWebsocket, MessageType } from "@hocuspocus/provider";
import WebSocket from "ws";
import type * as Y from "yjs";

/** How to reach the sync socket: the app's base URL, the session cookie, and the Origin to claim. */
export interface SyncClientOptions {
  baseURL: string;
  cookie: string;
  documentId: string;
  /** Defaults to the app's own origin (what a browser on the page sends). */
  origin?: string;
  /** Connection attempts before giving up (default: keep trying, as a browser does). */
  maxAttempts?: number;
}

/**
 * The outcome of an upgrade attempt, read without the provider (refused sockets never open).
 * `headers` adds to the request (an `Authorization` a program would send).
 */
export async function tryUpgrade(
  options: Omit<SyncClientOptions, "documentId"> & { headers?: Record<string, string> },
): Promise<number | "open"> {
  const url = `${options.baseURL.replace(/^http/, "ws")}/collab`;
  const socket = new WebSocket(url, {
    headers: { ...options.headers, cookie: options.cookie, origin: options.origin ?? options.baseURL },
  });
  return new Promise((resolve) => {
    socket.on("open", () => {
      socket.close();
      resolve("open");
    });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on("error", () => resolve(0));
  });
}

/** The message type of a Hocuspocus frame: after the document name (a length-prefixed string), a varint. */
function messageTypeOf(data: unknown): number | null {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data instanceof Uint8Array ? data : null;
  if (bytes === null) return null;
  let at = 0;
  const varUint = () => {
    let value = 0;
    for (let shift = 0; at < bytes.length; shift += 7) {
      const byte = bytes[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    return null;
  };
  const nameLength = varUint();
  if (nameLength === null) return null;
  at += nameLength;
  return varUint();
}

/** A connected copy of a document: its Yjs doc, a headless editor bound to it, and the provider. */
export class SyncClient {
  readonly bound: BoundDocumentEditor;
  readonly provider: HocuspocusProvider;
  readonly socket: HocuspocusProviderWebsocket;
  /** Close reasons the server sent (e.g. a refused connection), in order. */
  readonly closes: string[] = [];
  readonly refusals: string[] = [];
  /** How many updates the server has answered (applied, or refused for a read-only connection). */
  statusReplies = 0;

  constructor(options: SyncClientOptions) {
    const headers = { cookie: options.cookie, origin: options.origin ?? options.baseURL };
    // The provider constructs its sockets itself; this class hands them the cookie and Origin.
    class CookieWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    }
    this.bound = bindDocumentEditor();
    this.socket = new HocuspocusProviderWebsocket({
      url: `${options.baseURL.replace(/^http/, "ws")}/collab`,
      WebSocketPolyfill: CookieWebSocket,
      maxAttempts: options.maxAttempts ?? 0,
      // Retry quickly: tests restart servers and expect their clients back within seconds.
      delay: 100,
      minDelay: 100,
      maxDelay: 1_000,
    });
    this.provider = new HocuspocusProvider({
      websocketProvider: this.socket,
      name: options.documentId,
      document: this.bound.doc,
      token: "session-cookie",
      onClose: ({ event }) => this.closes.push(`${event.code} ${event.reason}`),
      onAuthenticationFailed: ({ reason }) => this.refusals.push(reason),
    });
    this.provider.on("message", ({ event }: { event: MessageEvent }) => {
      if (messageTypeOf(event.data) === MessageType.SyncStatus) this.statusReplies++;
    });
    this.provider.attach();
  }

  /** Connects this document again (as a browser does after the server closed it), so the server checks its rights anew. */
  reconnect(): void {
    this.provider.detach();
    this.provider.attach();
  }

  get doc(): Y.Doc {
    return this.bound.doc;
  }

  /** The document as Markdown, as this copy has it now. */
  markdown(): string {
    this.bound.editor.update(() => undefined, { discrete: true });
    return exportMarkdown(this.bound.editor);
  }

  /** Resolves once the first sync with the server is done (rejects after `timeoutMs`). */
  synced(timeoutMs = 10_000): Promise<void> {
    if (this.provider.isSynced) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no sync within the time limit")), timeoutMs);
      this.provider.on("synced", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves once the server has acknowledged every local change. */
  async flushed(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.provider.hasUnsyncedChanges) {
      if (Date.now() > deadline) throw new Error("changes not acknowledged within the time limit");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): void {
    // ws reports closing a socket that is still connecting (a server down, a reconnect under way)
    // as an error event, after the provider stopped listening to it: expected here, not a crash.
    const connecting = this.socket.webSocket;
    if (connecting instanceof WebSocket && connecting.readyState === WebSocket.CONNECTING) {
      connecting.on("error", (error) => {
        if (!error.message.includes("closed before the connection was established")) throw error;
      });
    }
    this.provider.destroy();
    this.socket.destroy();
    this.bound.dispose();
  }
}
