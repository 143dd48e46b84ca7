"use client";

import { memo, useEffect, useRef } from "react";
import type { ConversationItem } from "./conversation";
import { ToolActivityLine } from "./tool-activity-line";

type Reveal = (blockId: string) => boolean;

// Memoized: a streamed answer re-renders the list per delta; the lines that did not change (a
// tool call's sentence parses its Markdown) are left alone.
const ConversationLine = memo(function ConversationLine({
  item,
  onReveal,
}: {
  item: ConversationItem;
  onReveal: Reveal;
}) {
  switch (item.kind) {
    case "user":
      return <div className="message message-user">{item.text}</div>;
    case "assistant":
      return <div className="message message-assistant">{item.text}</div>;
    case "notice":
      return <div className="message message-notice">{item.text}</div>;
    case "tool":
      return <ToolActivityLine call={item} lookup={(id) => item.context[id]} onReveal={onReveal} />;
  }
});

/**
 * The conversation: prompts, streamed answers and tool calls (each a sentence linking to the block
 * it touched; `onReveal` goes there). Model output is rendered as text, never HTML.
 */
export function MessageList({ items, onReveal }: { items: ConversationItem[]; onReveal: Reveal }) {
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
        <ConversationLine key={item.id} item={item} onReveal={onReveal} />
      ))}
      <div ref={end} />
    </section>
  );
}
