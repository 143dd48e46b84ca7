// A participant of a chaos round: a user with a copy of one document (a SyncClient, its headless
// editor bound to it), on one instance, directly or through that instance's slow proxy. Writers
// type into their copy; an agent participant's copy runs its runs' tool calls (the browser's tab).
import { $getRoot, type LexicalEditor } from "lexical";
import WebSocket from "ws";
import { SyncClient } from "../lib/sync-client.ts";
import type { ObservedClient } from "./observed-client.ts";
import type { InstanceIndex } from "./schedule.ts";

/** A marker word a participant put in its copy, and when the server had all of its copy's changes after. */
export interface TypedMarker {
  marker: string;
  typedAt: number;
  /** When the copy's unsynced-changes count next reached 0 (the server acknowledged it), or null. */
  acknowledgedAt: number | null;
}

export class Participant {
  readonly index: number;
  readonly label: string;
  readonly documentId: string;
  readonly instance: InstanceIndex;
  readonly slow: boolean;
  /** The participant's user on its instance (through the slow proxy if it is slow). */
  readonly client: ObservedClient;
  readonly sync: SyncClient;
  readonly typed: TypedMarker[] = [];
  /** True while the nemesis holds this participant offline. */
  offline = false;

  constructor(options: {
    index: number;
    label: string;
    documentId: string;
    instance: InstanceIndex;
    slow: boolean;
    client: ObservedClient;
  }) {
    this.index = options.index;
    this.label = options.label;
    this.documentId = options.documentId;
    this.instance = options.instance;
    this.slow = options.slow;
    this.client = options.client;
    this.sync = new SyncClient({
      baseURL: options.client.baseURL,
      cookie: options.client.cookie,
      documentId: options.documentId,
    });
    this.sync.provider.on("unsyncedChanges", ({ number }: { number: number }) => {
      if (number !== 0) return;
      const now = Date.now();
      for (const typed of this.typed) typed.acknowledgedAt ??= now;
    });
  }

  get editor(): LexicalEditor {
    return this.sync.bound.editor;
  }

  /** Records a marker this participant's copy now holds. */
  noteTyped(marker: string): void {
    this.typed.push({ marker, typedAt: Date.now(), acknowledgedAt: null });
  }

  /** The copy's text, paragraphs apart (formatting left out: markers are compared as words). */
  text(): string {
    return this.editor.getEditorState().read(() => $getRoot().getTextContent());
  }

  /** Cuts the sync socket (a reset, no close handshake); the provider reconnects by itself. */
  cutSocket(): void {
    const socket = this.sync.socket.webSocket;
    if (socket instanceof WebSocket) socket.terminate();
  }

  /** Takes the copy offline (it keeps its edits) until `goOnline`. */
  goOffline(): void {
    this.offline = true;
    this.sync.socket.disconnect();
  }

  goOnline(): void {
    if (!this.offline) return;
    this.offline = false;
    // connect() retries by itself for as long as needed; its promise ends with the first success.
    void this.sync.socket.connect();
  }

  close(): void {
    this.sync.close();
  }
}
