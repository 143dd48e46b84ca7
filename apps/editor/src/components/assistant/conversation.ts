import {
  type ChatMessage,
  CONTINUABLE_STATUSES,
  type RunMode,
  type RunStatus as StoredRunStatus,
  type ToolResultFacts,
} from "@coauthor/types";
import type { BlockInfo } from "../editor/block-info";
import type { RunOutcome } from "./run-client";
import type { RecordedToolCall } from "./tool-activity";

/** One line of the assistant conversation. Text is always rendered as plain text. */
export type ConversationItem =
  | { kind: "user"; id: string; text: string }
  | { kind: "assistant"; id: string; text: string }
  /** `context`: the blocks the call names, as they were when it was made (for its sentence). */
  | ({ kind: "tool"; id: string; context: Record<string, BlockInfo> } & RecordedToolCall)
  | { kind: "notice"; id: string; text: string };

/** The id of a line of the conversation stored on the server (loaded, not from this visit). */
export const storedItemId = (messageId: string | number) => `stored-${messageId}`;

/** Whether `item` was loaded from the stored conversation. */
export const isStoredItem = (item: ConversationItem) => item.id.startsWith("stored-");

export type ConversationAction =
  | { type: "user"; id: string; text: string }
  | { type: "assistant-delta"; id: string; delta: string }
  | { type: "tool-start"; id: string; toolName: string; input: unknown; context: Record<string, BlockInfo> }
  | { type: "tool-settled"; id: string; ok: boolean; detail?: string; facts?: ToolResultFacts }
  | { type: "notice"; id: string; text: string }
  /** The stored conversation, loaded after the page opened: it goes before what is shown already. */
  | { type: "load"; items: ConversationItem[] }
  /** The writer cleared the conversation (stored and shown). */
  | { type: "clear" };

/** Applies one conversation change; deltas append to the message with the same id. */
export function conversationReducer(
  items: ConversationItem[],
  action: ConversationAction,
): ConversationItem[] {
  switch (action.type) {
    case "load": {
      const shown = new Set(items.map((item) => item.id));
      return [...action.items.filter((item) => !shown.has(item.id)), ...items];
    }
    case "clear":
      return [];
    case "user":
      return [...items, { kind: "user", id: action.id, text: action.text }];
    case "notice":
      return [...items, { kind: "notice", id: action.id, text: action.text }];
    case "assistant-delta": {
      const index = items.findIndex((item) => item.kind === "assistant" && item.id === action.id);
      if (index === -1) return [...items, { kind: "assistant", id: action.id, text: action.delta }];
      return items.map((item, i) =>
        i === index && item.kind === "assistant" ? { ...item, text: item.text + action.delta } : item,
      );
    }
    case "tool-start":
      if (items.some((item) => item.kind === "tool" && item.id === action.id)) return items;
      return [
        ...items,
        {
          kind: "tool",
          id: action.id,
          toolName: action.toolName,
          input: action.input,
          context: action.context,
          status: "running",
        },
      ];
    case "tool-settled":
      // The server's event carries the facts; this tab's own report of the call does not.
      return items.map((item) =>
        item.kind === "tool" && item.id === action.id
          ? {
              ...item,
              status: action.ok ? "ok" : "failed",
              detail: action.detail,
              facts: action.facts ?? item.facts,
            }
          : item,
      );
  }
}

const HISTORY_LIMIT = 40;

/** The prior turns sent with a new prompt (user prompts and assistant answers, most recent last). */
export function toHistory(items: ConversationItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const item of items) {
    if ((item.kind === "user" || item.kind === "assistant") && item.text.trim()) {
      messages.push({ role: item.kind, content: item.text });
    }
  }
  return messages.slice(-HISTORY_LIMIT);
}

/** The panel's run status. */
export type RunStatus =
  | { phase: "idle" }
  | { phase: "running"; mode: RunMode }
  /** `runId`: the run that ended (agent runs), which Continue picks up when it stopped early. */
  | { phase: "ended"; outcome: RunOutcome; runId?: string | null };

/** The run a Continue would pick up: one that stopped at a limit or by its time limit. */
export function continuableRun(status: RunStatus): string | null {
  if (status.phase !== "ended" || !status.runId) return null;
  return CONTINUABLE_STATUSES.includes(status.outcome.status) ? status.runId : null;
}

/**
 * How a run ended, in the words the panel's status line and History both use: `summary` is the
 * limit's sentence (limit, timeout) or the failure's reason.
 */
export function describeOutcome(status: StoredRunStatus, summary?: string | null): string {
  switch (status) {
    case "running":
      return "Running";
    case "done":
      return "Done";
    case "cancelled":
      return "Stopped";
    case "limit":
      return summary || "Stopped at a limit";
    case "timeout":
      return summary || "Stopped at the run time limit";
    case "failed":
      return summary ? `Failed: ${summary}` : "Failed";
  }
}

/** The text of the status line. */
export function describeStatus(status: RunStatus): string {
  if (status.phase === "idle") return "Ready";
  if (status.phase === "running") {
    return status.mode === "agent" ? "Assistant is editing…" : "Assistant is answering…";
  }
  const { outcome } = status;
  return describeOutcome(outcome.status, outcome.status === "failed" ? outcome.reason : outcome.summary);
}
