// Spawns the production build as its own server (its own port, data folder and
// environment) so a test can kill it with SIGKILL and start it again, and the
// benchmark can read its memory.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { registerServerLog } from "./mail-log.ts";

const START_SCRIPT = resolve(import.meta.dirname, "../../apps/editor/scripts/start.mjs");
const READY_TIMEOUT_MS = 60_000;

// The process groups of the servers running now. A server runs in a group of its own, so nothing
// sent to this process reaches it: when this process ends — normally, on an uncaught error, or
// stopped by a signal (`timeout`, Ctrl-C) — it kills them, instead of leaving them running (and
// busy) with nobody to stop them.
const running = new Set<number>();
function killRunning() {
  for (const group of running) {
    try {
      process.kill(-group, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
  running.clear();
}
process.on("exit", killRunning);

// Told of every server as it starts (watchServerStarts): the bench names the servers a failing
// section used without each section keeping a list.
const startListeners = new Set<(server: AppServer) => void>();

/** Calls `listener` with every AppServer that starts from now on, until the returned stop is called. */
export function watchServerStarts(listener: (server: AppServer) => void): () => void {
  startListeners.add(listener);
  return () => startListeners.delete(listener);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    killRunning();
    // Handled once: raised again, it does what it would have done without this handler.
    process.kill(process.pid, signal);
  });
}

/** A server process of the app that a test owns. */
export class AppServer {
  private port = 0;
  readonly dataDir: string;
  readonly env: Record<string, string>;
  private child: ChildProcess | null = null;
  /** Everything the server printed (stdout and stderr), across restarts. */
  log = "";
  /** Called after each chunk of output (waitForLog's waiters). */
  private readonly logListeners = new Set<() => void>();
  /** How its last process ended on its own (exit code or signal), if it did; a kill() is not recorded. */
  private ended: string | undefined;

  constructor(env: Record<string, string> = {}, options: { port?: number } = {}) {
    this.dataDir = mkdtempSync(join(tmpdir(), "coauthor-server-"));
    this.env = env;
    this.port = options.port ?? 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server (same port and data folder every time) and waits until it answers. */
  async start(): Promise<void> {
    if (this.child) throw new Error("server already running");
    if (this.port === 0) this.port = await freePort();
    // Clients signing up on this server read its verification mails from this log.
    registerServerLog(this.url, this);
    // Its own process group, so SIGKILL reaches `next start` too (start.mjs is its parent).
    const child = spawn(process.execPath, [START_SCRIPT], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: "127.0.0.1",
        COAUTHOR_DATA_DIR: this.dataDir,
        OFFLINE_MODEL_WORD_DELAY_MS: "40",
        ...this.env,
      },
    });
    this.child = child;
    this.ended = undefined;
    for (const listener of startListeners) listener(this);
    child.once("exit", (code, signal) => {
      if (this.child === child) this.ended = signal ? `killed by ${signal}` : `exited with code ${code}`;
    });
    const group = child.pid;
    if (group) {
      running.add(group);
      child.once("exit", () => running.delete(group));
    }
    const append = (chunk: Buffer) => {
      this.log += chunk.toString();
      for (const listener of this.logListeners) listener();
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${this.log}`);
      try {
        const response = await fetch(`${this.url}/api/health`);
        await response.arrayBuffer();
        if (response.ok) return;
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error(`server on ${this.port} did not become ready:\n${this.log}`);
  }

  /**
   * Waits (no polling: it is told of every chunk) until a whole line of the log from offset `from`
   * on matches `pattern`, and returns that line's match; fails after `timeoutMs` with the log.
   */
  waitForLog(pattern: RegExp, { from = 0, timeoutMs = 15_000 } = {}): Promise<RegExpMatchArray> {
    const find = () => {
      for (const line of this.log.slice(from).split("\n")) {
        const match = line.match(pattern);
        if (match) return match;
      }
      return null;
    };
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = find();
        if (!match) return;
        clearTimeout(timer);
        this.logListeners.delete(check);
        resolve(match);
      };
      const timer = setTimeout(() => {
        this.logListeners.delete(check);
        reject(new Error(`no log line matching ${pattern} within ${timeoutMs} ms:\n${this.log.slice(from)}`));
      }, timeoutMs);
      this.logListeners.add(check);
      check();
    });
  }

  /** The last `count` lines of what it printed. */
  lastLines(count: number): string {
    return this.log.trimEnd().split("\n").slice(-count).join("\n");
  }

  /** Whether it runs: "running", "stopped" (by kill or dispose), or how it ended on its own. */
  state(): string {
    if (this.ended) return this.ended;
    return this.child ? "running" : "stopped";
  }

  /** The server's processes (its process group: the start script and `next start`). */
  pids(): number[] {
    const group = this.child?.pid;
    if (!group) return [];
    const pids: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ESRCH") continue; // It ended while we looked.
        throw error;
      }
      // Fields after the command name: state, ppid, pgrp, ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp === group) pids.push(Number(entry));
    }
    return pids;
  }

  /** Stops the server for good and deletes its data folder. */
  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Kills the whole server process group at once (no shutdown of any kind) and waits for it to go. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    process.kill(-child.pid, signal);
    await exited;
    // The port is free once nothing answers on it.
    for (;;) {
      try {
        await fetch(`${this.url}/api/health`);
      } catch (error) {
        if (error instanceof TypeError) return;
        throw error;
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

/** A port nothing listens on right now (the OS picks it), so parallel suites never collide. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
