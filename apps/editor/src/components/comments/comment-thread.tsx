"use client";

import { type Comment, linksIn, linkUrlSchema } from "@coauthor/types";
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTRPC } from "@/trpc/react";
import type { ListedThread } from "./use-comment-threads";

// One thread of the Comments view: its quote, its comments (each editable and deletable by its
// author), a reply box, and Resolve / Reopen.

/** Trailing punctuation a sentence puts after a link, not part of it. */
const TRAILING = /[.,;:!?)\]]+$/;

/** A comment's text with its allowed links as links (the server refused any other). */
function BodyText({ body }: { body: string }) {
  const parts: ReactNode[] = [];
  let rest = body;
  for (const found of linksIn(body)) {
    const link = found.replace(TRAILING, "");
    const at = rest.indexOf(link);
    if (at < 0 || !linkUrlSchema.safeParse(link).success) continue;
    parts.push(rest.slice(0, at));
    parts.push(
      <a key={parts.length} href={link} target="_blank" rel="noopener noreferrer nofollow">
        {link}
      </a>,
    );
    rest = rest.slice(at + link.length);
  }
  parts.push(rest);
  return <p className="comment-body">{parts}</p>;
}

export function ThreadItem({
  documentId,
  thread,
  userId,
  canComment,
  canResolve,
  onReveal,
}: {
  documentId: string;
  thread: ListedThread;
  userId: string;
  canComment: boolean;
  canResolve: boolean;
  onReveal: () => void;
}) {
  const trpc = useTRPC();
  const setStatus = useMutation(trpc.comments.setStatus.mutationOptions());
  const reopen = thread.status === "resolved";
  return (
    <li
      className="comment-thread"
      data-testid="comment-thread"
      data-status={thread.status}
      data-thread-id={thread.id}
      tabIndex={-1}
    >
      {thread.anchored ? (
        <button type="button" className="comment-quote comment-quote-link" onClick={onReveal}>
          {thread.quote}
        </button>
      ) : (
        <p className="comment-quote comment-quote-deleted" data-testid="comment-on-deleted">
          On deleted text: “{thread.quote}”
        </p>
      )}
      <ol className="comment-list">
        {thread.comments.map((comment) => (
          <CommentItem
            key={comment.id}
            documentId={documentId}
            threadId={thread.id}
            comment={comment}
            own={comment.author.kind === "person" && comment.author.userId === userId}
          />
        ))}
      </ol>
      {canComment && !reopen ? <ReplyForm documentId={documentId} threadId={thread.id} /> : null}
      {canResolve ? (
        <button
          type="button"
          className="button ghost"
          data-testid={reopen ? "comment-reopen" : "comment-resolve"}
          disabled={setStatus.isPending}
          onClick={() =>
            setStatus.mutate({ documentId, threadId: thread.id, status: reopen ? "open" : "resolved" })
          }
        >
          {reopen ? "Reopen" : "Resolve"}
        </button>
      ) : null}
      {setStatus.error ? (
        <p role="alert" className="error small">
          {setStatus.error.message}
        </p>
      ) : null}
    </li>
  );
}

function CommentItem({
  documentId,
  threadId,
  comment,
  own,
}: {
  documentId: string;
  threadId: string;
  comment: Comment;
  own: boolean;
}) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState<string | null>(null);
  const edit = useMutation(trpc.comments.edit.mutationOptions({ onSuccess: () => setEditing(null) }));
  const remove = useMutation(trpc.comments.delete.mutationOptions());
  const author =
    comment.author.kind === "agent" ? `Coauthor · for ${comment.author.name}` : comment.author.name;
  return (
    <li className="comment" data-testid="comment">
      <p className="comment-meta small muted">
        <strong>{author}</strong> ·{" "}
        <time dateTime={new Date(comment.at).toISOString()}>{new Date(comment.at).toLocaleString()}</time>
        {comment.editedAt !== undefined ? " · edited" : ""}
      </p>
      {editing === null ? (
        <BodyText body={comment.body} />
      ) : (
        <form
          className="comment-form"
          onSubmit={(event) => {
            event.preventDefault();
            edit.mutate({ documentId, threadId, commentId: comment.id, body: editing });
          }}
        >
          <label htmlFor={`edit-${comment.id}`}>Edit comment</label>
          <textarea
            id={`edit-${comment.id}`}
            className="input"
            rows={3}
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <div className="comment-actions">
            <button type="submit" className="button" disabled={edit.isPending || !editing.trim()}>
              Save
            </button>
            <button type="button" className="button ghost" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {own && editing === null ? (
        <div className="comment-actions">
          <button type="button" className="button ghost small" onClick={() => setEditing(comment.body)}>
            Edit
          </button>
          <button
            type="button"
            className="button ghost small"
            data-testid="comment-delete"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ documentId, threadId, commentId: comment.id })}
          >
            Delete
          </button>
        </div>
      ) : null}
      {edit.error || remove.error ? (
        <p role="alert" className="error small">
          {(edit.error ?? remove.error)?.message}
        </p>
      ) : null}
    </li>
  );
}

function ReplyForm({ documentId, threadId }: { documentId: string; threadId: string }) {
  const trpc = useTRPC();
  const [body, setBody] = useState("");
  const reply = useMutation(trpc.comments.reply.mutationOptions({ onSuccess: () => setBody("") }));
  const id = `reply-${threadId}`;
  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        reply.mutate({ documentId, threadId, body });
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Reply
      </label>
      <textarea
        id={id}
        data-testid="comment-reply-body"
        className="input"
        rows={2}
        placeholder="Reply…"
        value={body}
        onChange={(event) => setBody(event.target.value)}
      />
      {reply.error ? (
        <p role="alert" className="error small">
          {reply.error.message}
        </p>
      ) : null}
      <button
        type="submit"
        className="button small"
        data-testid="comment-reply-submit"
        disabled={reply.isPending || !body.trim()}
      >
        Reply
      </button>
    </form>
  );
}
