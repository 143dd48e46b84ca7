import { type BoundDocumentEditor, bindMirroredEditor } from "@coauthor/tools";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import type { Provider } from "@lexical/yjs";
import type { LexicalEditor } from "lexical";
import * as Y from "yjs";

/** The sync socket: same origin as the page, so the session cookie authenticates it. */
export const COLLAB_PATH = "/collab";

/** Origin of the agent's edits in the page's Yjs document (its undo manager does not track it). */
export const AGENT_ORIGIN = "coauthor-agent";

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

  constructor(documentId: string) {
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
    // Before the page's binding exists, so both start from the same empty document.
    this.agent = bindMirroredEditor(this.doc, AGENT_ORIGIN);
    this.synced = new Promise((resolve) => {
      if (this.provider.isSynced) resolve();
      else this.provider.on("synced", () => resolve());
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
        provider.attach();
        return socket.connect();
      },
      disconnect: () => socket.disconnect(),
      on: (type: string, listener: (...args: never[]) => void) => provider.on(type, listener),
      off: (type: string, listener: (...args: never[]) => void) => provider.off(type, listener),
    } as Provider;
  }

  /** Resolves once the first sync with the server is done (the copy holds the whole document). */
  whenSynced(): Promise<void> {
    return this.synced;
  }

  /** The agent's editor: always holds what the page's document holds (tools wait for `whenSynced`). */
  get agentEditor(): LexicalEditor {
    return this.agent.editor;
  }
}
