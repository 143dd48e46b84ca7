import { getWritable } from "workflow";
import { publishLive } from "./frames.ts";

// A write resolves once the stream accepts the chunk; the world receives it at its next flush
// (10 ms timer). Frames sent within this window may not be durable yet.
const DURABLE_LAG_MS = 2_000;

/**
 * A step's writer for its run's frames. `send` hands a chunk to the live path
 * at once and queues it for the durable stream, where chunks queued while a
 * write is in flight go out joined as one (the durable stream takes one chunk
 * per flush tick). `flush` waits until everything sent is durable and throws
 * the first failed write. Step context only.
 */
export function openRunWriter(runId: string) {
  const writer = getWritable<string>().getWriter();
  let queued = "";
  let recent: { at: number; chunk: string }[] = [];
  let draining = false;
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;

  const drain = async () => {
    try {
      while (queued) {
        const chunk = queued;
        queued = "";
        await writer.write(chunk);
      }
    } finally {
      draining = false;
    }
  };

  const flush = async () => {
    await chain;
    if (failure) throw failure.error;
  };

  return {
    send(chunk: string) {
      publishLive(runId, chunk);
      const now = Date.now();
      recent = recent.filter((sent) => now - sent.at < DURABLE_LAG_MS);
      recent.push({ at: now, chunk });
      queued += chunk;
      if (draining || failure) return;
      draining = true;
      chain = drain().catch((error: unknown) => {
        failure ??= { error };
      });
    },
    flush,
    /** What may not be durable yet (lost if the process died now): the frames of the last 2 s. */
    unconfirmed: () => {
      const now = Date.now();
      return recent
        .filter((sent) => now - sent.at < DURABLE_LAG_MS)
        .map((sent) => sent.chunk)
        .join("");
    },
    /** Flushes, then ends the run's stream (its last frame was sent). */
    async close() {
      await flush();
      await writer.close();
    },
    release() {
      writer.releaseLock();
    },
  };
}

export type RunWriter = ReturnType<typeof openRunWriter>;
