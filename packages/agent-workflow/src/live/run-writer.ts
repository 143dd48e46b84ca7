import { getWritable } from "workflow";
import { publishLive } from "./frames.ts";

// When is a frame durable? The step's writable is the engine's serializing TransformStream, piped
// one chunk at a time into the world's stream: the pipe reads the next chunk only once the world
// has stored the one before (its write resolves after the world's flush), and with the transform's
// default queues (one chunk in, none out) our write of a chunk resolves only when the pipe has read
// it. So when a write resolves, every chunk before it is durable; the chunk itself, and what came
// after, may not be. One more resolved chunk is kept as a margin.
const KEPT_WRITTEN = 2;
// A frame nobody waits on (a tool's result, the model's deltas) may wait this long for the next
// one, so that a round trip's frames reach the durable stream as one chunk: on the Postgres world
// one insert, one notification and one read by each follower instead of three of each. A frame
// someone waits on (a tool call, the run's end) goes out at once, with everything before it.
// Readers in this process are not delayed: `publishLive` hands them every frame at once.
export const LINGER_MS = 10;

/** Where a run writer's chunks become durable: a writer of the step's stream, or one standing in for it. */
export type DurableWriter = Pick<WritableStreamDefaultWriter<string>, "write" | "close" | "releaseLock">;

/**
 * A step's writer for its run's frames. `send` hands a chunk to the live path
 * at once and queues it for the durable stream, where chunks queued while a
 * write is in flight go out joined as one (the durable stream takes one chunk
 * per flush tick); `{ linger: true }` lets a chunk wait up to LINGER_MS for
 * the next. `flush` waits until everything sent is durable and throws the
 * first failed write. `durable` is the step's stream by default (step context
 * only); a run's first step begun early gives one that waits for it
 * (deferred-durable.ts), tests their own.
 */
export function openRunWriter(runId: string, durable?: DurableWriter) {
  const writer = durable ?? getWritable<string>().getWriter();
  let queued = "";
  let inFlight = "";
  // The last chunks whose write resolved, oldest first (see above: the newest may not be durable).
  let written: string[] = [];
  let draining = false;
  let lingering: ReturnType<typeof setTimeout> | undefined;
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

  /** Writes what is queued now (a write in flight takes it when it is done). */
  const writeQueued = () => {
    clearTimeout(lingering);
    lingering = undefined;
    if (draining || failure || !queued) return;
    draining = true;
    chain = drain().catch((error: unknown) => {
      failure ??= { error };
    });
  };

  const flush = async () => {
    writeQueued();
    await chain;
    if (failure) throw failure.error;
  };

  return {
    send(chunk: string, options: { linger?: boolean } = {}) {
      publishLive(runId, chunk);
      queued += chunk;
      if (!options.linger) writeQueued();
      else if (!draining) lingering ??= setTimeout(writeQueued, LINGER_MS);
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
