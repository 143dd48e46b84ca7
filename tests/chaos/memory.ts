// An instance's memory, read from outside (/proc): the resident set of its processes after a full
// garbage collection (the bench-only route, COAUTHOR_BENCH=1), so a comparison is of what the
// server holds on to, not of whatever garbage its last burst left.
import { readFileSync } from "node:fs";
import type { AppServer } from "../lib/app-server.ts";

/** Resident memory of the server's processes together, in bytes. */
function residentBytes(server: AppServer): number {
  let total = 0;
  for (const pid of server.pids()) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // It ended while we looked.
      throw error;
    }
    total += Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) * 1024;
  }
  return total;
}

/** The server's resident memory after a full collection, in bytes. */
export async function settledMemory(server: AppServer): Promise<number> {
  const response = await fetch(`${server.url}/api/bench/gc`, { method: "POST" });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GC on ${server.url} answered ${response.status}`);
  return residentBytes(server);
}

export const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
