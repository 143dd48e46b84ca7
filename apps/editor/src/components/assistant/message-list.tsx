"use client";

import { useEffect, useRef } from "react";
import type { ConversationItem } from "./conversation";

function ConversationLine({ item }: { item: ConversationItem }) {
  switch (item.kind) {
    case "user":
      return <div className="message message-user">{item.text}</div>;
    case "assistant":
      return <div className="message message-assistant">{item.text}</div>;
    case "notice":
      return <div className="message message-notice">{item.text}</div>;
    case "tool":
      return (
        <div
          className={`tool-call tool-call-${item.status}`}
          data-testid="assistant-tool-call"
          data-status={item.status}
          title={item.detail}
        >
          <span className="tool-call-name">{item.toolName}</span>
          <span className="tool-call-status">{item.status}</span>
          {item.status === "failed" && item.detail ? (
            <span className="tool-call-detail">{item.detail}</span>
          ) : null}
        </div>
      );
  }
}

/** The conversation: prompts, streamed answers and tool calls. Model output is rendered as text, never HTML. */
export function MessageList({ items }: { items: ConversationItem[] }) {
  const end = useRef<HTMLDivElement>(null);
  const last = items.at(-1);
  const scrollKey = `${items.length}:${last && "text" in last ? last.text.length : 0}`;
  useEffect(() => {
    if (scrollKey) end.current?.scrollIntoView({ block: "nearest" });
  }, [scrollKey]);

  return (
    // Not a live region (streamed tokens would each be read out): the announcer reads summaries.
    // Focusable, so the scrollable conversation can be scrolled from the keyboard.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard (WCAG 2.1.1).
    <section className="messages" data-testid="assistant-messages" aria-label="Conversation" tabIndex={0}>
      {items.length === 0 ? (
        <p className="muted messages-empty">Ask a question (chat) or give the assistant a task (agent).</p>
      ) : null}
      {items.map((item) => (
        <ConversationLine key={item.id} item={item} />
      ))}
      <div ref={end} />
    </section>
  );
}
