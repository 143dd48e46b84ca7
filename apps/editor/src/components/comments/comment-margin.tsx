"use client";

import { $isMarkNode } from "@lexical/mark";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getNodeByKey, type LexicalEditor } from "lexical";
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useState } from "react";
import { OPEN_COMMENT_THREAD_COMMAND } from "./comment-selection";
import { type ListedThread, useCommentThreads } from "./use-comment-threads";
import "./comments.css";

// The open comment threads beside their text, as a reader of a commented document expects: each a
// small card level with the text it is on, pushed down when the one above reaches it. Where the
// page leaves no room beside the text (a phone, a narrow window) they are a list under the
// document. A card opens its thread in the panel's Comments view.

/** The margin's width (globals.css gives the shell this much padding on the right). */
const MARGIN = 280;
const CARD_GAP = 8;
/** Narrower than this, the text keeps the whole width and the cards go under it. */
const LEAST_SHELL_FOR_MARGIN = 800;
const EXCERPT = 140;

/** The element of the first mark of thread `threadId` in the page, or null. */
function firstMarkOf(editor: LexicalEditor, threadId: string): HTMLElement | null {
  const key = editor.read(() => {
    for (const [nodeKey] of editor.getEditorState()._nodeMap) {
      const node = $getNodeByKey(nodeKey);
      if ($isMarkNode(node) && node.hasID(threadId)) return nodeKey;
    }
    return null;
  });
  return key === null ? null : editor.getElementByKey(key);
}

function ThreadCard({ thread, style }: { thread: ListedThread; style?: CSSProperties }) {
  const [editor] = useLexicalComposerContext();
  const first = thread.comments[0];
  const replies = thread.comments.length - 1;
  const text = first?.body ?? "";
  const author =
    first === undefined
      ? "Someone"
      : first.author.kind === "agent"
        ? `Coauthor · for ${first.author.name}`
        : first.author.name;
  return (
    <li
      className="comment-margin-card"
      data-testid="comment-margin-card"
      data-thread-id={thread.id}
      style={style}
    >
      <button type="button" onClick={() => editor.dispatchCommand(OPEN_COMMENT_THREAD_COMMAND, thread.id)}>
        <span className="comment-margin-author">{author}</span>
        <span className="comment-margin-text">
          {text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text}
        </span>
        {replies > 0 ? (
          <span className="comment-margin-replies">{replies === 1 ? "1 reply" : `${replies} replies`}</span>
        ) : null}
      </button>
    </li>
  );
}

export function CommentMargin() {
  const [editor] = useLexicalComposerContext();
  const threads = useCommentThreads().filter((thread) => thread.anchored && thread.status === "open");
  const listRef = useRef<HTMLOListElement>(null);
  const [beside, setBeside] = useState(false);
  const [tops, setTops] = useState<ReadonlyMap<string, number>>(new Map());
  // Bumped on every editor update and resize: the text moves, so the cards must follow.
  const [layoutTick, setLayoutTick] = useState(0);

  useEffect(() => {
    const shell = editor.getRootElement()?.closest(".editor-shell");
    const bump = () => setLayoutTick((tick) => tick + 1);
    const stopUpdates = editor.registerUpdateListener(bump);
    const resize = shell instanceof HTMLElement ? new ResizeObserver(bump) : null;
    if (shell instanceof HTMLElement) resize?.observe(shell);
    return () => {
      stopUpdates();
      resize?.disconnect();
    };
  }, [editor]);

  const hasThreads = threads.length > 0;
  // The shell keeps room for the margin while there are cards beside the text.
  useLayoutEffect(() => {
    const shell = editor.getRootElement()?.closest(".editor-shell");
    if (!(shell instanceof HTMLElement)) return;
    const wide = hasThreads && shell.clientWidth >= LEAST_SHELL_FOR_MARGIN;
    shell.toggleAttribute("data-comment-margin", wide);
    setBeside(wide);
  });

  const threadKey = threads.map((thread) => thread.id).join(" ");
  // Each card level with its text, or just under the card above it; measured after every render.
  useLayoutEffect(() => {
    void layoutTick;
    void threadKey;
    const shell = editor.getRootElement()?.closest(".editor-shell");
    if (!beside || !(shell instanceof HTMLElement) || listRef.current === null) return;
    const shellTop = shell.getBoundingClientRect().top - shell.scrollTop;
    const next = new Map<string, number>();
    let reached = 0;
    for (const card of listRef.current.querySelectorAll<HTMLElement>("[data-thread-id]")) {
      const threadId = card.dataset.threadId ?? "";
      const mark = firstMarkOf(editor, threadId);
      const wanted = mark === null ? reached : mark.getBoundingClientRect().top - shellTop;
      const top = Math.max(wanted, reached);
      next.set(threadId, Math.round(top));
      reached = top + card.offsetHeight + CARD_GAP;
    }
    setTops((previous) =>
      previous.size === next.size && [...next].every(([id, top]) => previous.get(id) === top)
        ? previous
        : next,
    );
  }, [editor, beside, layoutTick, threadKey]);

  if (!hasThreads) return null;
  return (
    <ol
      ref={listRef}
      className={beside ? "comment-margin" : "comment-margin comment-margin-under"}
      data-testid="comment-margin"
      aria-label="Comments on this document"
      style={beside ? { width: MARGIN - 2 * 16 } : undefined}
    >
      {threads.map((thread) => (
        <ThreadCard
          key={thread.id}
          thread={thread}
          style={beside ? { top: tops.get(thread.id) ?? 0 } : undefined}
        />
      ))}
    </ol>
  );
}
