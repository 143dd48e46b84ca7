// What the server's processes spent: CPU time from /proc/<pid>/stat (Linux), read by the
// benchmark from outside, so the server needs no endpoint for it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

// Clock ticks per second of utime/stime (100 on every Linux we run; asked once, not assumed).
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** User + system CPU time of the given processes together, in milliseconds. */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // It ended meanwhile.
      throw error;
    }
    // Fields after the command name: state is field 3, utime 14 and stime 15 (1-based).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Runs `work` and returns its result with the server CPU it cost, in ms. */
export async function withServerCpu<T>(pids: () => number[], work: () => Promise<T>) {
  const before = cpuMs(pids());
  const result = await work();
  return { result, cpuMs: cpuMs(pids()) - before };
}
