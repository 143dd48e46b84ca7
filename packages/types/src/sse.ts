import { createParser, type EventSourceMessage } from "eventsource-parser";
import { type RunEvent, runEventSchema } from "./events.ts";

/**
 * Encodes one event as an SSE frame. The data line is JSON, so a model's
 * newlines or a literal "\n\nevent:" inside a delta can never forge a frame.
 */
export function encodeSseFrame(event: RunEvent): string {
  const { type, ...data } = event;
  return `id: ${event.id}\nevent: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** A frame that did not parse as a run event. */
export interface SseFrameError {
  raw: string;
  message: string;
}

/**
 * Incremental SSE reader for run events: feed it chunks as they arrive
 * (frames may be split across chunks or several may share one) and it
 * calls `onEvent` once per complete, schema-valid frame.
 */
export function createRunEventParser(handlers: {
  onEvent: (event: RunEvent) => void;
  onInvalid?: (error: SseFrameError) => void;
}) {
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      let json: unknown;
      try {
        json = JSON.parse(message.data);
      } catch (error) {
        handlers.onInvalid?.({ raw: message.data, message: `invalid JSON: ${(error as Error).message}` });
        return;
      }
      const parsed = runEventSchema.safeParse(json);
      if (!parsed.success || parsed.data.type !== (message.event ?? parsed.data.type)) {
        handlers.onInvalid?.({
          raw: message.data,
          message: parsed.success ? `event name ${message.event} does not match data` : parsed.error.message,
        });
        return;
      }
      handlers.onEvent(parsed.data);
    },
  });
  return {
    feed: (chunk: string) => parser.feed(chunk),
    reset: () => parser.reset(),
  };
}

/** Reads a whole SSE response body and yields its run events in order. */
export async function* readRunEvents(
  body: ReadableStream<Uint8Array>,
  onInvalid?: (error: SseFrameError) => void,
): AsyncGenerator<RunEvent> {
  const queue: RunEvent[] = [];
  const parser = createRunEventParser({ onEvent: (event) => queue.push(event), onInvalid });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as RunEvent;
    }
  } finally {
    reader.releaseLock();
  }
}
