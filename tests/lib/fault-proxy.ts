// A TCP proxy that breaks the link on purpose: between the app's instances and PostgreSQL or
// Redis (the service goes away while the instances run), or in front of an instance for some of
// its clients (a slow or broken network path). It forwards bytes unchanged until told otherwise.
// The chaos runner (tests/chaos) drives it; any suite may.
import { connect, createServer, type Server, type Socket } from "node:net";

/** Where a proxy forwards to. */
export interface ProxyTarget {
  host: string;
  port: number;
}

/**
 * What a proxy does to its traffic:
 * - `pass`: forwards (after `delayMs`, when set);
 * - `refuse`: every open connection was reset and each new one is reset at once, as when the
 *   service is down (the client sees ECONNRESET);
 * - `stall`: nothing moves either way and new connections wait, as in a network partition; the
 *   bytes held go on, in order, when it heals (nothing is lost, as with TCP retransmission).
 */
export type ProxyMode = "pass" | "refuse" | "stall";

/** The end of one direction's stream (the sender half-closed), queued behind its last bytes. */
const END = Symbol("end of stream");

/** One direction of a connection: what is to be written, each with the time it may leave. */
class Lane {
  private readonly queue: { item: Buffer | typeof END; due: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly proxy: FaultProxy;
  private readonly destination: () => Socket | null;

  constructor(proxy: FaultProxy, destination: () => Socket | null) {
    this.proxy = proxy;
    this.destination = destination;
  }

  push(item: Buffer | typeof END): void {
    this.queue.push({ item, due: Date.now() + this.proxy.delayMs });
    this.pump();
  }

  /** Writes whatever is due while the proxy passes traffic, and comes back for the rest when it is. */
  pump(): void {
    const socket = this.destination();
    if (this.timer || !socket || this.proxy.mode !== "pass") return;
    for (let next = this.queue[0]; next; next = this.queue[0]) {
      const wait = next.due - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        return;
      }
      this.queue.shift();
      if (next.item === END) socket.end();
      else if (!socket.destroyed) socket.write(next.item);
    }
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }
}

/** A client's connection and the one to the target opened for it. */
class Link {
  readonly client: Socket;
  private upstream: Socket | null = null;
  private readonly proxy: FaultProxy;
  private readonly toUpstream: Lane;
  private readonly toClient: Lane;
  private closed = false;

  constructor(proxy: FaultProxy, client: Socket) {
    this.proxy = proxy;
    this.client = client;
    this.toUpstream = new Lane(proxy, () => this.upstream);
    this.toClient = new Lane(proxy, () => this.client);
    client.on("data", (chunk: Buffer) => this.toUpstream.push(chunk));
    client.on("end", () => this.toUpstream.push(END));
    // A party going away is what this proxy exists to cause and to pass on: an error on either side
    // (a reset, a refused connection) resets the other, as it would have seen without the proxy.
    client.on("error", () => this.reset());
    client.on("close", () => this.closedSide());
    if (proxy.mode === "pass") this.open();
  }

  /** Connects to the target (once): at once while passing, else when a stall heals. */
  private open(): void {
    if (this.upstream || this.closed) return;
    const upstream = connect({
      port: this.proxy.target.port,
      host: this.proxy.target.host,
      allowHalfOpen: true,
    });
    this.upstream = upstream;
    upstream.on("data", (chunk: Buffer) => this.toClient.push(chunk));
    upstream.on("end", () => this.toClient.push(END));
    upstream.on("error", () => this.reset());
    upstream.on("close", () => this.closedSide());
    this.toUpstream.pump();
  }

  /** Sends what waited: a stall healed. */
  resume(): void {
    this.open();
    this.toUpstream.pump();
    this.toClient.pump();
  }

  /** Both sides closed (each after its end went through): the link is over. */
  private closedSide(): void {
    if (this.client.destroyed && (this.upstream === null || this.upstream.destroyed)) this.finish();
  }

  /** Ends both sides with a reset: the far side sees the link break, not a clean close. */
  reset(): void {
    if (this.closed) return;
    this.finish();
    this.client.resetAndDestroy();
    this.upstream?.resetAndDestroy();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.toUpstream.clear();
    this.toClient.clear();
    this.proxy.forget(this);
  }
}

/** A TCP proxy on a loopback port of its own, in front of `target`. */
export class FaultProxy {
  mode: ProxyMode = "pass";
  /** Added to every chunk, each way, while passing (a slow link). */
  delayMs = 0;
  readonly target: ProxyTarget;
  readonly port: number;
  private readonly server: Server;
  private readonly links = new Set<Link>();

  private constructor(server: Server, target: ProxyTarget, port: number) {
    this.server = server;
    this.target = target;
    this.port = port;
  }

  /** Listens on a free loopback port and forwards every connection to `target`. */
  static async start(target: ProxyTarget): Promise<FaultProxy> {
    const server = createServer({ allowHalfOpen: true });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("the proxy has no port");
    const proxy = new FaultProxy(server, target, address.port);
    server.on("connection", (socket) => proxy.accept(socket));
    return proxy;
  }

  /** A proxy in front of the host and port `url` names (a database, Redis or app URL). */
  static forUrl(url: string, defaultPort: number): Promise<FaultProxy> {
    const { hostname, port } = new URL(url);
    return FaultProxy.start({ host: hostname, port: Number(port || defaultPort) });
  }

  /** `url` with its host and port replaced by this proxy's. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = "127.0.0.1";
    routed.port = String(this.port);
    return routed.toString().replace(/\/$/, "");
  }

  /** How many connections are open through the proxy now. */
  get openLinks(): number {
    return this.links.size;
  }

  private accept(socket: Socket): void {
    if (this.mode === "refuse") {
      // The reset is the point; the error it raises on this socket is not news.
      socket.on("error", () => socket.destroy());
      socket.resetAndDestroy();
      return;
    }
    this.links.add(new Link(this, socket));
  }

  /** Called by a link that is over. */
  forget(link: Link): void {
    this.links.delete(link);
  }

  /** Resets every open connection; new ones are still taken. */
  cut(): void {
    for (const link of [...this.links]) link.reset();
  }

  /** The target is down: open connections are reset, and new ones at once, until `restore`. */
  refuse(): void {
    this.mode = "refuse";
    this.cut();
  }

  /** A partition: nothing moves and new connections wait, until `restore`. */
  stall(): void {
    this.mode = "stall";
  }

  /** Every chunk waits `ms` more before it goes on, each way (0: none). */
  slow(ms: number): void {
    this.delayMs = ms;
  }

  /** Back to forwarding at once; whatever a stall held goes on. */
  restore(): void {
    this.mode = "pass";
    this.delayMs = 0;
    for (const link of [...this.links]) link.resume();
  }

  /** Stops listening and resets every connection. */
  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
