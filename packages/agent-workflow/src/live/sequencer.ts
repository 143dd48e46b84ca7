const FRAME_ID = /^id: (\d+)\n/;

/**
 * Merges a run's frames from the live path and from its durable stream into
 * one gap-free sequence by event id, starting at `fromId`. Live frames can
 * arrive first (the durable stream lags by its flush timer) or be missing
 * (frames written before the response subscribed); each id goes out once.
 * The durable stream is complete and ordered, so a durable frame past a gap
 * means the gap will never fill: it goes out, and the sequence moves on.
 */
export function createFrameSequencer(fromId: number, emit: (frames: string) => void) {
  let next = fromId;
  const held = new Map<number, string>();

  const release = (out: string[]) => {
    for (let frame = held.get(next); frame !== undefined; frame = held.get(next)) {
      held.delete(next);
      out.push(frame);
      next++;
    }
  };

  const accept = (chunk: string, durable: boolean) => {
    const out: string[] = [];
    for (const frame of chunk.split(/(?<=\n\n)/)) {
      const match = frame.match(FRAME_ID);
      if (!match) {
        if (frame) out.push(frame);
        continue;
      }
      const id = Number(match[1]);
      if (id < next) continue;
      if (id === next || durable) {
        out.push(frame);
        next = id + 1;
        for (const key of held.keys()) if (key < next) held.delete(key);
        release(out);
      } else {
        held.set(id, frame);
      }
    }
    if (out.length > 0) emit(out.join(""));
  };

  return {
    live: (chunk: string) => accept(chunk, false),
    durable: (chunk: string) => accept(chunk, true),
    /** The id the next frame must carry. */
    next: () => next,
  };
}
