"use client";

import "./comments.css";

/**
 * How many comment threads are open, with an "@" when one of them mentions the viewer: beside the
 * panel's Comments button and on the home page's document row. Nothing when no thread is open.
 */
export function CommentBadge({ open, mentions }: { open: number; mentions: number }) {
  if (open === 0) return null;
  const mentioned = mentions > 0;
  return (
    <span
      className={`comment-badge${mentioned ? " comment-badge-mention" : ""}`}
      data-testid="comment-badge"
      data-open={open}
      data-mentions={mentions}
    >
      {/* The visible mark is short; the words are for screen readers. */}
      <span aria-hidden="true">
        {open}
        {mentioned ? " @" : ""}
      </span>
      <span className="visually-hidden">
        {open === 1 ? "1 open comment" : `${open} open comments`}
        {mentioned ? `, ${mentions === 1 ? "1 mentions" : `${mentions} mention`} you` : ""}
      </span>
    </span>
  );
}
