import { type RunEvent, runEventSchema } from "@coauthor/types";
import type { RecordedToolCall } from "./tool-activity";

/** One line of a run's event log as the history view shows it. */
export interface LogLine {
  id: number;
  type: RunEvent["type"];
  text: string;
  /** Milliseconds since the run's first event, when the server stamped the event. */
  elapsedMs?: number;
}

function describe(event: RunEvent): string {
  switch (event.type) {
    case "run-start":
      return `model ${event.model}`;
    case "text-delta":
      return event.delta;
    case "plan":
      return `${event.goal} — ${event.steps.map((s) => s.description).join(" · ")}`;
    case "step":
      return `${event.stepId} ${event.status}${event.description ? `: ${event.description}` : ""}`;
    case "pipeline":
      return `${event.name}: ${event.nodes.length} steps`;
    case "pipeline-step":
      return `${event.path} ${event.status}${event.iteration ? ` (round ${event.iteration})` : ""}${event.attempt ? ` (attempt ${event.attempt})` : ""}${event.error ? `: ${event.error}` : ""}`;
    case "tool-input-delta":
      return `${event.toolName} ${event.delta}`;
    case "tool-call":
      return `${event.toolName} ${JSON.stringify(event.input)}`;
    case "tool-result":
      return `${event.ok ? "ok" : "failed"}: ${event.summary}`;
    case "finish":
      return `${event.status}${event.summary ? ` — ${event.summary}` : ""}`;
    case "error":
      return `${event.code}: ${event.message}`;
    case "heartbeat":
      return "";
  }
}

/** A run's log: its lines for operators, its tool calls for the activity sentences. */
export interface RunLog {
  lines: LogLine[];
  calls: (RecordedToolCall & { toolCallId: string })[];
  invalid: number;
}

/**
 * Parses the NDJSON event log of a run into display lines and tool calls. Consecutive text
 * and tool-input deltas are joined so a long answer reads as one line.
 * Lines that are not valid events are reported, not shown.
 */
export function parseRunLog(ndjson: string): RunLog {
  const lines: LogLine[] = [];
  const calls = new Map<string, RecordedToolCall & { toolCallId: string }>();
  let invalid = 0;
  let startedAt: number | undefined;
  let lastStream: string | undefined;
  for (const raw of ndjson.split("\n")) {
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      invalid++;
      continue;
    }
    const parsed = runEventSchema.safeParse(value);
    if (!parsed.success) {
      invalid++;
      continue;
    }
    const event = parsed.data;
    if (event.type === "tool-call" && !calls.has(event.toolCallId)) {
      const { toolCallId, toolName, input } = event;
      calls.set(toolCallId, { toolCallId, toolName, input, status: "running" });
    }
    const call = event.type === "tool-result" ? calls.get(event.toolCallId) : undefined;
    if (event.type === "tool-result" && call) {
      call.status = event.ok ? "ok" : "failed";
      if (!event.ok) call.detail = event.summary;
      if (event.facts) call.facts = event.facts;
    }
    const previous = lines.at(-1);
    // Deltas of the same message (or the same tool call's input) read as one line.
    const stream =
      event.type === "text-delta"
        ? `m:${event.messageId}`
        : event.type === "tool-input-delta"
          ? `t:${event.toolCallId}`
          : undefined;
    if (
      (event.type === "text-delta" || event.type === "tool-input-delta") &&
      previous &&
      lastStream === stream
    ) {
      previous.text += event.delta;
      continue;
    }
    startedAt ??= event.at;
    const elapsedMs = event.at !== undefined && startedAt !== undefined ? event.at - startedAt : undefined;
    lines.push({
      id: event.id,
      type: event.type,
      text: describe(event),
      ...(elapsedMs === undefined ? {} : { elapsedMs }),
    });
    lastStream = stream;
  }
  return { lines, calls: [...calls.values()], invalid };
}

/** Fetches a run's full event log (offset 0). */
export async function fetchRunLog(runId: string, signal?: AbortSignal) {
  const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/events?offset=0`, { signal });
  if (!response.ok) throw new Error(`the event log could not be read (HTTP ${response.status})`);
  return parseRunLog(await response.text());
}
