import type { RunEvent } from "@coauthor/types";

/** Where the printer writes: the CLI's stdout, or a test's buffer. */
export type Write = (text: string) => void;

const MAX_INPUT_CHARS = 120;

/**
 * Prints a run's events as they come: the model's text as it streams, and each other thing that
 * happens (a plan, a step, a tool call and its result, the end) as a line of its own. Text in
 * progress is ended with a newline before any such line, so lines never run into each other.
 */
export function createPrinter(write: Write) {
  let midText = false;
  const line = (text: string) => {
    if (midText) write("\n");
    midText = false;
    write(`${text}\n`);
  };
  return {
    print(event: RunEvent): void {
      if (event.type === "text-delta") {
        if (event.delta === "") return;
        write(event.delta);
        midText = !event.delta.endsWith("\n");
        return;
      }
      const text = describe(event);
      if (text !== null) line(text);
    },
    /** Prints a line of the CLI's own (stopping the run), after the text in progress. */
    note(text: string): void {
      line(text);
    },
    /** Ends the text in progress, if any (the stream ended). */
    end(): void {
      if (midText) write("\n");
      midText = false;
    },
  };
}

/** The line an event prints, or null for those a person need not see (heartbeats, input deltas). */
export function describe(event: RunEvent): string | null {
  switch (event.type) {
    case "run-start":
      return `· run ${event.runId} on document ${event.documentId} (${event.model})`;
    case "plan":
      return `· plan: ${event.goal} (${event.steps.length} steps)`;
    case "step":
      return event.status === "running" ? `· step: ${event.description ?? event.stepId}` : null;
    case "pipeline":
      return `· recipe: ${event.name}`;
    case "pipeline-step":
      return event.status === "running" ? null : `· recipe step ${event.path}: ${event.status}`;
    case "tool-call":
      return `→ ${event.toolName} ${shortJson(event.input)}`;
    case "tool-result":
      return `${event.ok ? "✓" : "✗"} ${event.summary}`;
    case "error":
      return `${event.recoverable ? "!" : "✗ error"} ${event.code}: ${event.message}`;
    case "finish":
      return `· finished: ${event.status}${event.summary ? ` (${event.summary})` : ""}`;
    case "heartbeat":
    case "tool-input-delta":
    case "text-delta":
      return null;
  }
}

function shortJson(value: unknown): string {
  const json = JSON.stringify(value) ?? "";
  return json.length > MAX_INPUT_CHARS ? `${json.slice(0, MAX_INPUT_CHARS - 1)}…` : json;
}
