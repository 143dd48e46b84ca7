import { getWritable } from "workflow";
import { publishLive } from "./frames.ts";

// When is a frame durable? The step's writable is the engine's serializing TransformStream, piped
// one chunk at a time into the world's stream: the pipe reads the next chunk only once the world
// has stored the one before (its write resolves after the world's flush), and with the transform's
// default queues (one chunk in, none out) our write of a chunk resolves only when the pipe has read
// it. So when a write resolves, every chunk before it is durable; the chunk itself, and what came
// after, may not be. One more resolved chunk is kept as a margin.
const KEPT_WRITTEN = 2;

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
  // The last chunks whose write resolved, oldest first (see above: the newest may not be durable).
  let written: string[] = [];
  let draining = false;
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;

  const drain = async () => {
    try {
      while (queued) {
        inFlight = queued;
        queued = "";
        await writer.write(inFlight);
        written = [...written, inFlight].slice(-KEPT_WRITTEN);
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
    /** What may not be durable yet (lost if the process died now): sent again on resume, same ids. */
    unconfirmed: () => written.join("") + inFlight + queued,
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
