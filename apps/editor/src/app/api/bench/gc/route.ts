import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { benchDisabled } from "@/server/bench";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Benchmark only: a full garbage collection, so the bench reads the memory live objects hold
 * (RSS per waiting run) rather than whatever garbage the last burst left. `--expose-gc` set at
 * run time reaches new contexts only, hence the fresh context that hands `gc` over.
 */
export async function POST(): Promise<Response> {
  const disabled = benchDisabled();
  if (disabled) return disabled;
  setFlagsFromString("--expose-gc");
  const gc: unknown = runInNewContext("gc");
  if (typeof gc !== "function") return new Response("gc unavailable", { status: 501 });
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return Response.json({ rss, heapUsed });
}
