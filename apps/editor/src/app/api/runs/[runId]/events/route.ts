import { log } from "@coauthor/agent-workflow";
import { isTerminalEvent } from "@coauthor/types";
import { createRunEventParser } from "@coauthor/types/sse";
import { getRun } from "workflow/api";
import { requireOwnRun } from "@/server/agent/authorize-run";
import { parseEventOffset } from "@/server/http/event-offset";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * A run's stored events from `?offset=N` (the event id) as NDJSON, one event
 * per line, for debugging and audit; a run still going streams until its end.
 */
export async function GET(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const { runId } = await context.params;
  const owned = await requireOwnRun(request, runId, "events", {
    ownerMayAudit: true,
    readsLog: true,
    acceptToken: true,
  });
  if (!owned.ok) return owned.response;
  const parsed = parseEventOffset(new URL(request.url).searchParams.get("offset"), "events");
  if (!parsed.ok) return parsed.response;
  const offset = parsed.value;
  const encoder = new TextEncoder();
  const source = getRun(runId).getReadable<string>({ startIndex: 0 });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let done = false;
      const parser = createRunEventParser({
        onEvent: (event) => {
          if (event.type === "heartbeat" || event.id < offset || done) return;
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
          if (isTerminalEvent(event)) done = true;
        },
      });
      const reader = source.getReader();
      // A run that is over but whose stream was never closed (a crash) must not hang the reader.
      const status = await getRun(runId).status;
      const idleLimit = status === "running" || status === "pending" ? undefined : IDLE_AFTER_END_MS;
      try {
        while (!done) {
          const next = await readWithin(reader, idleLimit);
          if (!next || next.done) break;
          parser.feed(next.value);
        }
      } finally {
        await reader
          .cancel()
          .catch((error: unknown) => log.error("events: could not release the stream", { runId, error }));
        controller.close();
      }
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" },
  });
}

const IDLE_AFTER_END_MS = 1_000;

async function readWithin(reader: ReadableStreamDefaultReader<string>, ms: number | undefined) {
  if (ms === undefined) return reader.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}
