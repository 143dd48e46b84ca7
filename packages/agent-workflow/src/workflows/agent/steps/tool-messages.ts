import { type ToolResultFacts, toolResultFacts } from "@coauthor/types";
import type { ModelMessage } from "ai";
import type { RequestedToolCall } from "../types.ts";

// How tool results enter the conversation the model sees, and how the run's stream reports them.

/** The `tool` message that answers `call` with `result` (JSON, as the browser posted it). */
export function toolMessage(call: RequestedToolCall, result: unknown): ModelMessage {
  return {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "json", value: JSON.parse(JSON.stringify(result ?? null)) },
      },
    ],
  };
}

/**
 * The answer to a call the run did not make (a limit, the run's time): every call the model asked
 * for gets a result, as every provider requires, and the model learns why nothing happened.
 */
export function notRunMessage(call: RequestedToolCall, code: string, message: string): ModelMessage {
  return toolMessage(call, { ok: false, code, message });
}

/**
 * The verdict of `toolName`'s result for the run's `tool-result` event: ok or the failure's message,
 * and what a successful call did (counts, first block ids) for the activity sentence.
 */
export function summarizeResult(
  toolName: string,
  result: unknown,
): { ok: boolean; summary: string; facts?: ToolResultFacts } {
  if (typeof result === "object" && result !== null && "ok" in result) {
    if (result.ok === false) {
      const message = "message" in result ? String(result.message) : "failed";
      return { ok: false, summary: message.slice(0, 200) };
    }
    const facts = toolResultFacts(toolName, result);
    return { ok: true, summary: "ok", ...(facts ? { facts } : {}) };
  }
  return { ok: false, summary: "malformed result" };
}
