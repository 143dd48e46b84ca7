"use client";

import { $isMarkNode, MarkNode } from "@lexical/mark";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getNodeByKey, type LexicalEditor, type NodeKey } from "lexical";
import { type CSSProperties, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
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

/**
 * The keys of each thread's marks in `editor`, kept from the marks' mutations (a keystroke that
 * touches no mark costs nothing here): where a card looks for its text.
 */
function useMarkKeys(editor: LexicalEditor, onChange: () => void): Map<string, Set<NodeKey>> {
  const [marks] = useState(() => new Map<string, Set<NodeKey>>());
  useEffect(
    () =>
      editor.registerMutationListener(MarkNode, (mutations) => {
        editor.read(() => {
          for (const [key, mutation] of mutations) {
            for (const keys of marks.values()) keys.delete(key);
            const node = mutation === "destroyed" ? null : $getNodeByKey(key);
            if (!$isMarkNode(node)) continue;
            for (const id of node.getIDs()) marks.set(id, (marks.get(id) ?? new Set()).add(key));
          }
        });
        onChange();
      }),
    [editor, marks, onChange],
  );
  return marks;
}

/** The top of the highest mark of `keys` in the page (viewport coordinates), or null. */
function topOf(editor: LexicalEditor, keys: ReadonlySet<NodeKey> | undefined): number | null {
  let top: number | null = null;
  for (const key of keys ?? []) {
    const element = editor.getElementByKey(key);
    if (element === null) continue;
    const at = element.getBoundingClientRect().top;
    top = top === null ? at : Math.min(top, at);
  }
  return top;
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
  // Bumped on every editor update, mark change and resize: the text moves, so the cards follow.
  const [layoutTick, setLayoutTick] = useState(0);
  const bump = useCallback(() => setLayoutTick((tick) => tick + 1), []);
  const markKeys = useMarkKeys(editor, bump);

  useEffect(() => {
    const shell = editor.getRootElement()?.closest(".editor-shell");
    const stopUpdates = editor.registerUpdateListener(bump);
    const resize = shell instanceof HTMLElement ? new ResizeObserver(bump) : null;
    if (shell instanceof HTMLElement) resize?.observe(shell);
    return () => {
      stopUpdates();
      resize?.disconnect();
    };
  }, [editor, bump]);

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
      const markTop = topOf(editor, markKeys.get(threadId));
      const wanted = markTop === null ? reached : markTop - shellTop;
      const top = Math.max(wanted, reached);
      next.set(threadId, Math.round(top));
      reached = top + card.offsetHeight + CARD_GAP;
    }
    setTops((previous) =>
      previous.size === next.size && [...next].every(([id, top]) => previous.get(id) === top)
        ? previous
        : next,
    );
  }, [editor, beside, layoutTick, threadKey, markKeys]);

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
