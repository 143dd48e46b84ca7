import type { LlmTurn } from "./call-llm.ts";

/** What the loop does after a model turn and its tool calls. */
export type Decision =
  | { action: "continue" }
  | { action: "summarize"; status: "done" | "timeout"; summary: string };

/**
 * Decision step: continue with another model turn (there are tool results to
 * show it) or summarize and finish (the model answered without tools, or the
 * step limit is reached). Pure and deterministic, so it runs in the workflow
 * context: a durable step would only add a replay to every tool call.
 */
export function decideNext(args: {
  turn: Pick<LlmTurn, "text" | "toolCalls">;
  turnIndex: number;
  maxSteps: number;
}): Decision {
  const summary = args.turn.text.trim();
  if (args.turn.toolCalls.length === 0) return { action: "summarize", status: "done", summary };
  if (args.turnIndex + 1 >= args.maxSteps) {
    return {
      action: "summarize",
      status: "timeout",
      summary: `Stopped after ${args.maxSteps} steps (the step limit).`,
    };
  }
  return { action: "continue" };
}
