// Starts the production build on loopback for a benchmark, in a throwaway data folder.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running app server. */
export interface BenchServer {
  baseURL: string;
  dataDir: string;
  /** The server's process tree (for memory readings). */
  pids: () => number[];
  stop: () => Promise<void>;
}

const STOP_GRACE_MS = 5_000;

/** Starts `next start` via the app's start script and waits until it answers. */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "coauthor-bench-"));
  const root = join(import.meta.dirname, "..", "..");
  const child: ChildProcess = spawn("node", [join(root, "apps/editor/scripts/start.mjs")], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", COAUTHOR_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", process.env.BENCH_SERVER_LOG ? "inherit" : "ignore", "inherit"],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error("server did not answer /api/health within 60 s");
    }
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rootPid = child.pid ?? 0;
  return {
    baseURL,
    dataDir,
    pids: () => processTree(rootPid),
    // `next start` runs as a child of the start script: signal the whole tree, and kill what is
    // still busy (a server saturated by stalled runs ignored SIGTERM) after a grace period.
    stop: () =>
      new Promise((resolve) => {
        const tree = processTree(rootPid);
        const signal = (name: NodeJS.Signals) => {
          for (const pid of tree) {
            try {
              process.kill(pid, name);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
            }
          }
        };
        const force = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS);
        child.once("exit", () => {
          clearTimeout(force);
          signal("SIGKILL");
          resolve();
        });
        signal("SIGTERM");
      }),
  };
}

/** `root` and all its descendants, from /proc. */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked: it is not part of the tree any more.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}
