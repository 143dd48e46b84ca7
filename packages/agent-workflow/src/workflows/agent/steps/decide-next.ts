import type { LlmTurn } from "./call-llm.ts";

/** What the loop does after a model turn. */
export type Decision =
  | { action: "continue" }
  | { action: "summarize"; status: "done" | "timeout"; summary: string };

/**
 * Decision step: continue with another model turn (tool results to show it)
 * or summarize and finish (the model answered without tools, or a limit hit).
 */
export async function decideNext(args: {
  turn: Pick<LlmTurn, "text" | "toolCalls">;
  turnIndex: number;
  maxSteps: number;
}): Promise<Decision> {
  "use step";
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
