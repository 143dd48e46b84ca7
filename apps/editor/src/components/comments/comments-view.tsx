"use client";

import { $isMarkNode } from "@lexical/mark";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useMutation } from "@tanstack/react-query";
import { $getNodeByKey } from "lexical";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useCopyState } from "@/components/editor/copy-state";
import { useTRPC } from "@/trpc/react";
import type { CommentTarget } from "./comment-selection";
import { ThreadItem } from "./comment-thread";
import { type ListedThread, useCommentThreads } from "./use-comment-threads";
import "./comments.css";

/** Scrolls the document to a thread's text. */
function useRevealThread() {
  const [editor] = useLexicalComposerContext();
  return (threadId: string) => {
    const key = editor.read(() => {
      for (const [nodeKey] of editor.getEditorState()._nodeMap) {
        const node = $getNodeByKey(nodeKey);
        if ($isMarkNode(node) && node.hasID(threadId)) return nodeKey;
      }
      return null;
    });
    if (key !== null) editor.getElementByKey(key)?.scrollIntoView({ block: "center", behavior: "smooth" });
  };
}

/**
 * The Comments view: a new thread's form (from the toolbar's Comment), then the document's threads
 * in the order of their text, open ones first, each with its comments, a reply box, Resolve /
 * Reopen, and edit / delete on one's own comments. Everything is written through the server; the
 * list follows the shared document live.
 */
export function CommentsView({
  documentId,
  userId,
  canComment,
  canResolveAll,
  draft,
  onDraftDone,
  opened = null,
}: {
  documentId: string;
  userId: string;
  canComment: boolean;
  canResolveAll: boolean;
  draft: CommentTarget | null;
  onDraftDone: () => void;
  /** A thread to show and focus (opened from its card in the margin; a new object each time). */
  opened?: { threadId: string } | null;
}) {
  const threads = useCommentThreads();
  const [showResolved, setShowResolved] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  // The thread opened from the margin: in view and focused, so the keyboard goes on from there —
  // once its item is in the list (a view just opened reads its threads after its first render).
  const focusedFor = useRef<{ threadId: string } | null>(null);
  useEffect(() => {
    if (opened === null || focusedFor.current === opened) return;
    setShowResolved(false);
    const item = listRef.current?.querySelector<HTMLElement>(
      `[data-thread-id="${CSS.escape(opened.threadId)}"]`,
    );
    if (!item) return;
    focusedFor.current = opened;
    item.scrollIntoView({ block: "nearest" });
    item.focus();
  });
  const reveal = useRevealThread();
  const open = threads.filter((thread) => thread.status === "open");
  const resolved = threads.filter((thread) => thread.status === "resolved");
  const shown = showResolved ? resolved : open;
  return (
    <section className="comments-view" data-testid="comments-view" aria-label="Comments">
      {draft !== null && canComment ? (
        <NewThread documentId={documentId} target={draft} onDone={onDraftDone} />
      ) : null}
      <fieldset className="comments-filter" aria-label="Which threads">
        <button
          type="button"
          className="button ghost"
          aria-pressed={!showResolved}
          onClick={() => setShowResolved(false)}
        >
          Open ({open.length})
        </button>
        <button
          type="button"
          className="button ghost"
          aria-pressed={showResolved}
          onClick={() => setShowResolved(true)}
        >
          Resolved ({resolved.length})
        </button>
      </fieldset>
      {shown.length === 0 ? (
        <p className="muted">
          {showResolved
            ? "No resolved threads."
            : canComment
              ? "No open threads. Select text and press Comment (Ctrl+Alt+M) to start one."
              : "No open threads."}
        </p>
      ) : (
        <ol className="comment-threads" ref={listRef}>
          {shown.map((thread) => (
            <ThreadItem
              key={thread.id}
              documentId={documentId}
              thread={thread}
              userId={userId}
              canComment={canComment}
              canResolve={canResolveAll || firstAuthorIs(thread, userId)}
              onReveal={() => reveal(thread.id)}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function firstAuthorIs(thread: ListedThread, userId: string): boolean {
  const first = thread.comments[0]?.author;
  return first?.kind === "person" && first.userId === userId;
}

function NewThread({
  documentId,
  target,
  onDone,
}: {
  documentId: string;
  target: CommentTarget;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const [body, setBody] = useState("");
  const copyState = useCopyState();
  const add = useMutation(trpc.comments.add.mutationOptions({ onSuccess: onDone }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ documentId, ...target, body, stateVector: copyState() });
  };
  return (
    <form className="comment-form" onSubmit={submit} data-testid="new-comment">
      <blockquote className="comment-quote">{target.quote}</blockquote>
      <label htmlFor="new-comment-body">Comment</label>
      <textarea
        id="new-comment-body"
        data-testid="new-comment-body"
        className="input"
        rows={3}
        value={body}
        // The form opens on the writer's request: their next keystrokes belong here.
        // biome-ignore lint/a11y/noAutofocus: opened by the writer's own Comment command
        autoFocus
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
        }}
      />
      {add.error ? (
        <p role="alert" className="error small">
          {add.error.message}
        </p>
      ) : null}
      <div className="comment-actions">
        <button
          type="submit"
          className="button"
          data-testid="new-comment-submit"
          disabled={add.isPending || !body.trim()}
        >
          Comment
        </button>
        <button type="button" className="button ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
