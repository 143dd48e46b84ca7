import type { RunEvent, RunEventBody } from "@coauthor/types";
import { encodeSseFrame } from "@coauthor/types/sse";

/** Stamps `runId` and consecutive ids on event bodies and encodes them as one chunk of SSE frames. */
export function framesOf(runId: string, firstId: number, bodies: readonly RunEventBody[]): string {
  return bodies.map((body, i) => encodeSseFrame({ ...body, runId, id: firstId + i } as RunEvent)).join("");
}
