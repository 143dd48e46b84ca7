import { getWritable } from "workflow";
import { disarmRun } from "../../../deadlines.ts";
import type { RunEventBody } from "../types.ts";
import { framesOf } from "./write-frames.ts";

/**
 * Writes events to the run's stream as one chunk and, when `close` is set,
 * ends the stream (the last frame of a run). Returns the next event id.
 */
export async function emitEvents(
  runId: string,
  firstId: number,
  events: RunEventBody[],
  close = false,
): Promise<number> {
  "use step";
  const writer = getWritable<string>().getWriter();
  try {
    if (events.length > 0) await writer.write(framesOf(runId, firstId, events));
    if (close) {
      await writer.close();
      disarmRun(runId);
    }
  } finally {
    writer.releaseLock();
  }
  return firstId + events.length;
}
