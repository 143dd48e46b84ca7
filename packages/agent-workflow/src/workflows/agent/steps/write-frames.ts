import type { RunEvent, RunEventBody } from "@coauthor/types";
import { encodeSseFrame } from "@coauthor/types/sse";

/**
 * Stamps `runId`, consecutive ids and the write time on event bodies and
 * encodes them as one chunk of SSE frames. Runs in steps only (reads the clock).
 */
export function framesOf(runId: string, firstId: number, bodies: readonly RunEventBody[]): string {
  const at = Date.now();
  return bodies
    .map((body, i) => encodeSseFrame({ ...body, runId, id: firstId + i, at } as RunEvent))
    .join("");
}
