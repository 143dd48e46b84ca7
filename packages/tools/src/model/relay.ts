import * as Y from "yjs";

// An in-memory stand-in for the sync server (Hocuspocus speaking y-protocols): every copy has one
// connection to a server Y.Doc, and each direction of a connection is a queue of messages that
// arrive only when the model says so, so updates are held back, delivered late, lost with a closed
// connection, and (in "reorder" mode) delivered out of order. Reconnecting runs the protocol's
// handshake as messages too: each side sends its state vector (sync step 1) and answers the
// other's with what that side lacks (sync step 2).

export type Message =
  | { kind: "update"; update: Uint8Array }
  | { kind: "sync-step-1"; stateVector: Uint8Array }
  | { kind: "sync-step-2"; update: Uint8Array };

/** Which way a message travels: from the copy to the server, or from the server to the copy. */
export type Direction = "up" | "down";

interface Connection {
  open: boolean;
  up: Message[];
  down: Message[];
}

/** Origin of the updates the relay applies, so neither side sends them back as its own. */
const FROM_RELAY = Symbol("model.relay");

export interface RelayOptions {
  /** Deliver any queued message of a connection next, not only the oldest. */
  reorder: boolean;
}

export class Relay {
  readonly server = new Y.Doc();
  readonly copies: readonly Y.Doc[];
  private readonly options: RelayOptions;
  private readonly connections: Connection[];

  constructor(copies: readonly Y.Doc[], seed: Uint8Array, options: RelayOptions) {
    this.copies = copies;
    this.options = options;
    Y.applyUpdate(this.server, seed, FROM_RELAY);
    this.connections = copies.map(() => ({ open: true, up: [], down: [] }));
    copies.forEach((doc, index) => {
      doc.on("update", (update: Uint8Array, origin: unknown) => {
        const connection = this.connection(index);
        if (origin !== FROM_RELAY && connection.open) connection.up.push({ kind: "update", update });
      });
    });
    // The server sends what it takes from one copy to every other connected copy.
    this.server.on("update", (update: Uint8Array, origin: unknown) => {
      this.connections.forEach((connection, index) => {
        if (connection.open && origin !== index) {
          connection.down.push({ kind: "update", update });
        }
      });
    });
  }

  private connection(index: number): Connection {
    const connection = this.connections[index];
    if (connection === undefined) throw new Error(`no connection ${index}`);
    return connection;
  }

  private doc(index: number): Y.Doc {
    const doc = this.copies[index];
    if (doc === undefined) throw new Error(`no copy ${index}`);
    return doc;
  }

  isOpen(index: number): boolean {
    return this.connection(index).open;
  }

  pending(index: number, direction: Direction): number {
    return this.connection(index)[direction].length;
  }

  /**
   * Delivers one queued message of copy `index` in `direction` (the oldest, or in reorder mode
   * the one at `pick` modulo the queue's length). Returns false when nothing was queued.
   */
  deliver(index: number, direction: Direction, pick: number): boolean {
    const connection = this.connection(index);
    const queue = connection[direction];
    if (queue.length === 0) return false;
    const at = this.options.reorder ? pick % queue.length : 0;
    const [message] = queue.splice(at, 1);
    if (message === undefined) return false;
    if (direction === "up") this.receive(this.server, message, connection.down, index);
    else this.receive(this.doc(index), message, connection.up, FROM_RELAY);
    return true;
  }

  /**
   * Applies `message` to `doc` with `origin` (the server's origin is the sending copy's index, so
   * it does not echo the update back); a sync step 1 is answered on `replies`.
   */
  private receive(doc: Y.Doc, message: Message, replies: Message[], origin: unknown): void {
    if (message.kind === "sync-step-1") {
      replies.push({ kind: "sync-step-2", update: Y.encodeStateAsUpdate(doc, message.stateVector) });
      return;
    }
    Y.applyUpdate(doc, message.update, origin);
  }

  /** Closes the connection of copy `index`: what was in flight either way is lost. */
  disconnect(index: number): void {
    const connection = this.connection(index);
    connection.open = false;
    connection.up = [];
    connection.down = [];
  }

  /** Opens the connection of copy `index` again, starting with both sides' sync step 1. */
  connect(index: number): void {
    const connection = this.connection(index);
    if (connection.open) return;
    connection.open = true;
    connection.up.push({ kind: "sync-step-1", stateVector: Y.encodeStateVector(this.doc(index)) });
    connection.down.push({ kind: "sync-step-1", stateVector: Y.encodeStateVector(this.server) });
  }

  /**
   * Reconnects every copy and delivers every message, answers included, until all queues are
   * empty; `afterEach` runs after each message (the copies' editors catch up there).
   */
  async settle(afterEach: () => Promise<void>): Promise<void> {
    this.copies.forEach((_, index) => {
      this.connect(index);
    });
    for (let busy = true; busy; ) {
      busy = false;
      for (const [index] of this.copies.entries()) {
        for (const direction of ["up", "down"] as const) {
          while (this.deliver(index, direction, 0)) {
            busy = true;
            await afterEach();
          }
        }
      }
    }
  }
}
