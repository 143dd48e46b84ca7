import {
  AGENT_CALLS_ROOT_NAME,
  type BoundDocumentEditor,
  bindMirroredEditor,
  findCall,
  nextClock,
  recordCall,
  registerAuthorship,
  YJS_ROOT_NAME,
} from "@coauthor/tools";
import { COLLAB_PATH, DOCUMENT_DAMAGED } from "@coauthor/types";
import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from "@hocuspocus/provider";
import type { Provider } from "@lexical/yjs";
import type { LexicalEditor } from "lexical";
import { IndexeddbPersistence } from "y-indexeddb";
import * as Y from "yjs";
import { isInvalidContentClose } from "./sync-state";

/** Origin of the agent's edits in the page's Yjs document (its undo manager does not track it). */
export const AGENT_ORIGIN = "coauthor-agent";

/** The shared map recording which write tool calls have run (see `runOnce`). */
const AGENT_CALLS = AGENT_CALLS_ROOT_NAME;
/**
 * Origin of the writes to that map. Not AGENT_ORIGIN: the mirror skips updates of that origin (it
 * made them), and a mirror missing one of this copy's updates would hold back every later one.
 * Not the binding's either, so they stay off the writer's undo stack.
 */
const AGENT_CALLS_ORIGIN = "coauthor-agent-calls";

/** IndexedDB databases holding offline copies start with this (per user and document). */
const OFFLINE_PREFIX = "coauthor:";

/** Deletes every offline copy in this browser (at sign-out: the next person here must not find them). */
export async function forgetOfflineCopies(): Promise<void> {
  if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return;
  const databases = await indexedDB.databases();
  await Promise.all(
    databases
      .filter((database) => database.name?.startsWith(OFFLINE_PREFIX))
      .map(
        (database) =>
          new Promise<void>((resolve, reject) => {
            const request = indexedDB.deleteDatabase(database.name ?? "");
            request.onsuccess = () => resolve();
            request.onerror = () => reject(request.error);
            // Another tab still has it open: it goes when that tab closes.
            request.onblocked = () => resolve();
          }),
      ),
  );
}

function decodeBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${COLLAB_PATH}`;
}

/**
 * One open copy of a document: its Yjs document, the provider that syncs it with the server, and
 * the agent's editor — a headless editor on a mirror of the same document, where the run's tools
 * execute (see `bindMirroredEditor`).
 */
export class CollabSession {
  readonly doc = new Y.Doc();
  readonly provider: HocuspocusProvider;
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly agent: BoundDocumentEditor;
  private readonly synced: Promise<void>;
  private readonly offlineName: string;
  private offline: IndexeddbPersistence | null = null;
  private readonly readable: Promise<void>;
  private markReadable: () => void = () => undefined;
  private stopFollowingNetwork: (() => void) | null = null;
  /** The document's state sent with the page (see `initialDocumentState`), until it is applied. */
  private initialState: Uint8Array | null;
  /** The server will not serve this copy again as it is (damaged document, refused content): stay disconnected. */
  private halted = false;

  /** `initialState`: the document's Yjs state sent with the page (base64), or null. */
  constructor(documentId: string, userId: string, initialState: string | null = null) {
    this.initialState = initialState === null ? null : decodeBase64(initialState);
    this.offlineName = `${OFFLINE_PREFIX}${userId}:${documentId}`;
    // Not connected yet: Lexical's binding connects once it observes the document, so the first
    // sync arrives as changes it sees (it syncs changes only).
    this.socket = new HocuspocusProviderWebsocket({ url: socketUrl(), autoConnect: false });
    this.provider = new HocuspocusProvider({
      websocketProvider: this.socket,
      name: documentId,
      document: this.doc,
      // Authentication is the session cookie the socket carries; the token is only the protocol's formality.
      token: "session-cookie",
    });
    // A damaged document fails the same way on every attempt: stop here (the page shows the notice;
    // after a restore it reloads), rather than reconnect to it again and again.
    this.provider.on("authenticationFailed", ({ reason }: { reason: string }) => {
      if (reason === DOCUMENT_DAMAGED) this.halt();
    });
    // A change the server refused (content a document may not hold) would go again with every
    // reconnect's sync and be refused again, forever: stop, and delete the offline copy that holds
    // it, so that a reload starts from what the server saved (the page says so).
    this.provider.on("close", ({ event }: { event: { code: number; reason?: string } }) => {
      if (isInvalidContentClose(event)) this.halt({ forgetOfflineCopy: true });
    });
    // Before the page's binding exists, so both start from the same empty document.
    this.agent = bindMirroredEditor(this.doc, AGENT_ORIGIN);
    // The run's direct edits name it in the blocks they write (runToolNowAs).
    registerAuthorship(this.agent.editor);
    this.synced = new Promise((resolve) => {
      if (this.provider.isSynced) resolve();
      else this.provider.on("synced", () => resolve());
    });
    this.readable = new Promise((resolve) => {
      this.markReadable = resolve;
    });
    void this.synced.then(() => this.markReadable());
  }

  /** Disconnects for good: no reconnect, also not when the browser comes back online. */
  private halt({ forgetOfflineCopy = false }: { forgetOfflineCopy?: boolean } = {}): void {
    this.halted = true;
    this.stopFollowingNetwork?.();
    this.socket.disconnect();
    if (forgetOfflineCopy && this.offline !== null) {
      this.offline.clearData().catch((error: unknown) => {
        console.error("[collab] could not delete the offline copy", error);
      });
    }
  }

  /**
   * Keeps this copy in IndexedDB too: edits made offline survive a closed tab and merge when the
   * page next connects. Started only once the page's binding observes the document (its stored
   * content must arrive as changes the binding sees).
   */
  private keepOffline(): void {
    if (this.offline !== null || this.halted || typeof indexedDB === "undefined") return;
    this.offline = new IndexeddbPersistence(this.offlineName, this.doc);
    void this.offline.whenSynced.then(() => {
      // A copy kept from an earlier visit can be edited before the server answers.
      if (this.doc.share.has(YJS_ROOT_NAME) && this.doc.get(YJS_ROOT_NAME, Y.XmlText).length > 0) {
        this.markReadable();
      }
    });
  }

  /**
   * The provider as Lexical's `CollaborationPlugin` drives it: its connect/disconnect open and
   * close this copy's socket (Hocuspocus' own connect() is a no-op for a provider given a socket).
   */
  lexicalProvider(): Provider {
    const { provider, socket } = this;
    return {
      // Created with a Y.Doc, the provider always has an awareness.
      awareness: provider.awareness as unknown as Provider["awareness"],
      connect: () => {
        if (this.halted) return;
        this.applyInitialState();
        this.keepOffline();
        this.followNetwork();
        provider.attach();
        return socket.connect();
      },
      disconnect: () => {
        this.stopFollowingNetwork?.();
        return socket.disconnect();
      },
      on: (type: string, listener: (...args: never[]) => void) => provider.on(type, listener),
      off: (type: string, listener: (...args: never[]) => void) => provider.off(type, listener),
    } as Provider;
  }

  /**
   * Applies the state sent with the page, once the binding observes the document (it syncs changes
   * only): the editor holds the document and takes typing before the socket's first sync. The
   * origin is the provider's own, so the provider does not send the server what it already has.
   */
  private applyInitialState(): void {
    if (this.initialState === null) return;
    Y.applyUpdate(this.doc, this.initialState, this.provider);
    this.initialState = null;
    this.markReadable();
  }

  /**
   * Follows the browser's network state: offline closes the socket at once (a dead socket would
   * otherwise be noticed only when messages stop arriving), online reconnects at once.
   */
  private followNetwork(): void {
    if (this.stopFollowingNetwork !== null || typeof window === "undefined") return;
    const offline = () => this.socket.disconnect();
    const online = () => {
      if (this.socket.status !== WebSocketStatus.Connected) {
        void this.socket.connect();
        return;
      }
      // The socket "offline" closed may not have closed yet (its close frame had no network to go
      // out on): connecting now does nothing, and when its close arrives, no reconnect is wanted
      // any more — the copy stayed offline for good (1 in 5 of the e2e handover runs). Connect once
      // it has closed.
      const reconnect = () => {
        this.socket.off("disconnect", reconnect);
        if (!this.halted && this.stopFollowingNetwork !== null) void this.socket.connect();
      };
      this.socket.on("disconnect", reconnect);
    };
    window.addEventListener("offline", offline);
    window.addEventListener("online", online);
    this.stopFollowingNetwork = () => {
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
      this.stopFollowingNetwork = null;
    };
  }

  /** Resolves once the first sync with the server is done (the copy holds the whole document). */
  whenSynced(): Promise<void> {
    return this.synced;
  }

  /** Resolves once the copy holds the document: from the server, or from this browser's offline copy. */
  whenReadable(): Promise<void> {
    return this.readable;
  }

  /**
   * Runs a write tool call at most once across every copy of the document: it is recorded in the
   * shared Yjs document (map "agentCalls", key `runId:toolCallId`) right after its edit, in the
   * same turn, so the two reach the server together — with its output and the agent mirror's items
   * the edit made. A tab that takes a run over finds a call another tab already ran and reuses its
   * result instead of editing again; should the server have run it too while this tab was
   * offline, the sync server deletes what the later of the two inserted (`removeSecondExecutions`).
   */
  async runOnce(runId: string, toolCallId: string, run: () => Promise<unknown>): Promise<unknown> {
    const key = `${runId}:${toolCallId}`;
    const recorded = findCall(this.doc, key);
    if (recorded !== null) return recorded.output;
    const from = nextClock(this.agent.doc);
    const result = await run();
    recordCall(this.doc, key, result, this.agent, from, AGENT_CALLS_ORIGIN);
    return result;
  }

  /**
   * What this copy wrote itself, as a Yjs state vector: the writer's edits and this tab's agent's
   * (its mirror writes under a client of its own). The rest of the copy came from the server.
   */
  ownStateVector(): Uint8Array {
    const writers = [this.doc.clientID, this.agent.doc.clientID];
    return Y.encodeStateVector(
      new Map(writers.map((client) => [client, Y.getState(this.doc.store, client)])),
    );
  }

  /** Drops the records of a run's calls once it has ended (they only guard against a second execution). */
  forgetRun(runId: string): void {
    const calls = this.doc.getMap<unknown>(AGENT_CALLS);
    const prefix = `${runId}:`;
    const keys = [...calls.keys()].filter((key) => key.startsWith(prefix));
    if (keys.length === 0) return;
    this.doc.transact(() => {
      for (const key of keys) calls.delete(key);
    }, AGENT_CALLS_ORIGIN);
  }

  /** The agent's editor: always holds what the page's document holds (tools wait for `whenSynced`). */
  get agentEditor(): LexicalEditor {
    return this.agent.editor;
  }
}
