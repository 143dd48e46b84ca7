import { getWritable } from "workflow";
import { publishLive } from "./frames.ts";

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
  let inFlight = "";
  let draining = false;
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;

  const drain = async () => {
    try {
      while (queued) {
        inFlight = queued;
        queued = "";
        await writer.write(inFlight);
        inFlight = "";
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
      queued += chunk;
      if (draining || failure) return;
      draining = true;
      chain = drain().catch((error: unknown) => {
        failure ??= { error };
      });
    },
    flush,
    /** What was sent but is not known to be durable yet (lost if the process dies now). */
    unconfirmed: () => inFlight + queued,
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
