import type { DurableWriter } from "./run-writer.ts";

// The durable side of a run's first step begun before the engine delivered it. On the local world
// the route that starts a run begins that step's work at once (run-start-early.ts); frames go out
// live as usual, but the only place they may become durable is the step's own stream, which exists
// once the engine runs the step. Writes wait here, in order, until the step attaches its stream's
// writer, and each resolves only when the real write does: the run writer's account of what is
// durable (and so what a checkpoint marks unconfirmed) stays true.

/** A stand-in for a step stream's writer, until the step attaches the real one. */
export interface DeferredDurable extends DurableWriter {
  /** Hands every write, waiting and to come, to `target` (the step's stream). */
  attach(target: DurableWriter): void;
  /** Fails every write, waiting and to come: no step will take them. */
  abandon(reason: Error): void;
}

export function deferredDurable(): DeferredDurable {
  let attach: (target: DurableWriter) => void = () => undefined;
  let abandon: (reason: Error) => void = () => undefined;
  const target = new Promise<DurableWriter>((resolve, reject) => {
    attach = resolve;
    abandon = reject;
  });
  // Only writes report an abandon; one without writes waiting must not go unhandled.
  target.catch(() => undefined);
  return {
    attach,
    abandon,
    async write(chunk) {
      await (await target).write(chunk);
    },
    async close() {
      await (await target).close();
    },
    releaseLock() {
      // Released after the writer's last write settled: attached by then, or abandoned.
      target.then(
        (attached) => attached.releaseLock(),
        () => undefined,
      );
    },
  };
}
