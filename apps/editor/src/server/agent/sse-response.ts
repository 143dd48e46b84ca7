import { log } from "@coauthor/agent-workflow";
import { createFrameSequencer, subscribeLive } from "@coauthor/agent-workflow/server";
import { type FinishStatus, finishEventSchema, type RunEvent } from "@coauthor/types";
import { encodeSseFrame } from "@coauthor/types/sse";
import { getRun } from "workflow/api";
import { WorkflowRunNotFoundError } from "workflow/errors";
import { env } from "@/env";

const STATUS_POLL_MS = 500;
// After the engine reports the run ended, how long the stream may still
// deliver its own last frame before we write one for it.
const GRACE_MS = 1_500;
const COMPLETED_GRACE_MS = 30_000;
const TEXT_DELTA = "\nevent: text-delta\n";
const TERMINAL = /\nevent: (finish|error)\ndata: (.*)\n/g;

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

/**
 * How a run's stream ended: its finish frame (with the run's status, when the frame reads as one),
 * or an error that ends it.
 */
export type StreamEnd = { type: "finish"; status?: FinishStatus } | { type: "error" };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The run's last frame in `chunk`, if it holds one. */
function terminalOf(chunk: string): StreamEnd | null {
  for (const match of chunk.matchAll(TERMINAL)) {
    if (match[1] === "finish") {
      // Its status is a shortcut for the run's row (the engine's end report sets it anyway): a
      // frame that does not read as one still ends the stream.
      const finish = finishEventSchema.safeParse(parseJson(match[2] ?? ""));
      if (!finish.success) log.warn("a finish frame without a readable status", { chunk: match[0] });
      return { type: "finish", status: finish.success ? finish.data.status : undefined };
    }
    if (match[2]?.includes('"recoverable":false')) return { type: "error" };
  }
  return null;
}

/**
 * Streams a run's SSE chunks to the client. Workflow DevKit does not close a
 * run's stream on cancel or crash (pitfall 3), so this also watches the run's
 * status and, if the run ended without writing its last frame, writes one.
 */
export function runEventResponse(
  runId: string,
  readable: ReadableStream<string>,
  options: {
    signal: AbortSignal;
    /** Replay: frames with a lower id are skipped (reattach with Last-Event-ID). */
    fromId?: number;
    onEnd?: (end: StreamEnd) => void;
    /** Called when the first text-delta goes out (the first-delta metric). */
    onFirstDelta?: () => void;
  },
): Response {
  let lastId = -1;
  let terminal = false;
  let closed = false;
  const encoder = new TextEncoder();
  const reader = readable.getReader();

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        controller.close();
        void reader.cancel().catch(() => undefined);
      };
      // A heartbeat after 15 s (SSE_HEARTBEAT_MS) of silence keeps proxies from closing the stream.
      // It repeats the last id, so it never disturbs a client's (runId, id) dedupe.
      let lastWrite = Date.now();
      const heartbeat = setInterval(
        () => {
          if (closed || terminal || Date.now() - lastWrite < env.SSE_HEARTBEAT_MS) return;
          const event: RunEvent = { type: "heartbeat", runId, id: Math.max(lastId, 0), ts: Date.now() };
          controller.enqueue(encoder.encode(encodeSseFrame(event)));
          lastWrite = Date.now();
        },
        Math.min(1_000, env.SSE_HEARTBEAT_MS / 2),
      );
      const lastFrame = (status: string): RunEvent => {
        // Past anything this response sent and anything the client says it saw (Last-Event-ID).
        const id = Math.max(lastId + 1, options.fromId ?? 0);
        if (status === "cancelled")
          return { type: "finish", runId, id, status: "cancelled", summary: "Stopped." };
        return {
          type: "error",
          runId,
          id,
          code: "run-ended",
          message: `the run ${status}`,
          recoverable: false,
        };
      };
      const watchdog = watchStatus(
        runId,
        () => terminal || closed,
        (status) => {
          const event = lastFrame(status);
          if (terminal || closed) return;
          terminal = true;
          controller.enqueue(encoder.encode(encodeSseFrame(event)));
          options.onEnd?.(
            event.type === "finish" ? { type: "finish", status: event.status } : { type: "error" },
          );
          close();
        },
      );
      // The client went away: stop reading. The run itself goes on (it is
      // reattachable); only Stop or a new prompt cancels it.
      options.signal.addEventListener("abort", () => {
        closed = true;
        void reader.cancel().catch(() => undefined);
      });
      // Frames reach this response twice: live from the steps of this process (at once) and from
      // the durable stream (after its flush timer). The sequencer lets each id out once, in order.
      const sequencer = createFrameSequencer(options.fromId ?? 0, (out) => {
        if (closed || terminal) return;
        lastId = sequencer.next() - 1;
        controller.enqueue(encoder.encode(out));
        lastWrite = Date.now();
        if (out.includes(TEXT_DELTA)) options.onFirstDelta?.();
        const end = terminalOf(out);
        if (end) {
          terminal = true;
          options.onEnd?.(end);
          close();
        }
      });
      const unsubscribe = subscribeLive(runId, sequencer.live);
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || closed || terminal) break;
          sequencer.durable(value);
          if (terminal) break;
        }
      } catch (error) {
        if (!closed) log.error("stream failed", { runId, error });
      } finally {
        unsubscribe();
        watchdog.stop();
        clearInterval(heartbeat);
        close();
      }
    },
    cancel() {
      closed = true;
      void reader.cancel().catch(() => undefined);
    },
  });
  return new Response(body, { headers: { ...SSE_HEADERS, "x-run-id": runId } });
}

function watchStatus(runId: string, done: () => boolean, onEnded: (status: string) => void) {
  let endedAt: number | undefined;
  const timer = setInterval(async () => {
    if (done()) return clearInterval(timer);
    try {
      const status = await getRun(runId).status;
      if (status === "completed" || status === "failed" || status === "cancelled") {
        endedAt ??= Date.now();
        // A completed run wrote its own last frame: the stream may just lag behind (long runs).
        if (Date.now() - endedAt >= (status === "completed" ? COMPLETED_GRACE_MS : GRACE_MS)) {
          clearInterval(timer);
          onEnded(status);
        }
      }
    } catch (error) {
      // The world no longer has the run: its document was deleted (or its log expired) and the
      // run was stopped and purged; no frame will come, so the stream ends as stopped.
      if (WorkflowRunNotFoundError.is(error)) {
        clearInterval(timer);
        onEnded("cancelled");
        return;
      }
      log.error("status check failed", { runId, error });
    }
  }, STATUS_POLL_MS);
  return { stop: () => clearInterval(timer) };
}
