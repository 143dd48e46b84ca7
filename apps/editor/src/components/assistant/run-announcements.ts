"use client";

import { useEffect, useRef } from "react";
import { useAnnounce } from "../a11y/announcer";
import { type ConversationItem, describeStatus, isStoredItem, type RunStatus } from "./conversation";
import { describeToolCall } from "./tool-activity";

/** What a screen reader hears for a settled conversation line; null for lines it does not announce. */
export function announcementOf(item: ConversationItem): string | null {
  switch (item.kind) {
    case "user":
      return null;
    case "assistant":
      return `Assistant: ${item.text}`;
    case "notice":
      return item.text;
    case "tool": {
      if (item.status === "running") return null;
      // The same sentence the conversation shows for the step.
      const { text } = describeToolCall(item, (id) => item.context[id]);
      return item.status === "ok" ? text : `${text}${item.detail ? ` — ${item.detail}` : ""}`;
    }
  }
}

/** Whether `item` (at `index`) will not change any more: a message is finished once anything follows it or the run ended. */
function isSettled(
  item: ConversationItem,
  index: number,
  items: ConversationItem[],
  running: boolean,
): boolean {
  if (item.kind === "tool") return item.status !== "running";
  if (item.kind === "assistant") return index < items.length - 1 || !running;
  return true;
}

/**
 * Announces the conversation in summaries, never per token: one line per finished message, one
 * per tool step, one when the run ends. The conversation loaded from earlier visits is not read out.
 */
export function useRunAnnouncements(items: ConversationItem[], status: RunStatus) {
  const announce = useAnnounce();
  const announced = useRef(new Set<string>());
  const lastStatus = useRef(status);
  useEffect(() => {
    const running = status.phase === "running";
    for (const [index, item] of items.entries()) {
      if (announced.current.has(item.id)) continue;
      if (isStoredItem(item)) {
        announced.current.add(item.id);
        continue;
      }
      if (!isSettled(item, index, items, running)) continue;
      announced.current.add(item.id);
      const text = announcementOf(item);
      if (text) announce(text);
    }
    if (status !== lastStatus.current && status.phase === "ended")
      announce(`Run ended: ${describeStatus(status)}`);
    lastStatus.current = status;
  }, [announce, items, status]);
}
