import { disarmRun } from "../../../deadlines.ts";
import { openRunWriter } from "../../../live/run-writer.ts";
import { forgetRun } from "../../../run-control.ts";
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
  const writer = openRunWriter(runId);
  try {
    if (events.length > 0) writer.send(framesOf(runId, firstId, events));
    if (close) {
      await writer.close();
      // The run's last step: what this process kept for it goes.
      disarmRun(runId);
      forgetRun(runId);
    } else {
      await writer.flush();
    }
  } finally {
    writer.release();
  }
  return firstId + events.length;
}
