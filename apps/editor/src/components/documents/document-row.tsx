"use client";

import Link from "next/link";
import { useState } from "react";
import { CommentBadge } from "@/components/comments/comment-badge";
import { InlineRename } from "./inline-rename";
import "./sharing.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Formats a timestamp that may arrive as a Date or (over JSON) an ISO string. */
export function formatUpdatedAt(value: Date | string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : dateFormat.format(date);
}

const ROLE_LABELS = {
  owner: "Owner",
  editor: "Shared · editor",
  commenter: "Shared · commenter",
  viewer: "Shared · viewer",
} as const;

/** One document of the home list, as `documents.list` answers it. */
export interface ListedDocument {
  id: string;
  title: string;
  updatedAt: Date | string;
  /** The user's role: only the owner may delete, only owners and editors rename. */
  role: "owner" | "editor" | "commenter" | "viewer";
  /** The start of its text (around the first match when searching). */
  snippet: string;
  /** The name of who last changed its content or title, when known. */
  lastEditedBy: string | null;
  /** Its open comment threads, and how many of them mention the user. */
  openThreads: number;
  openMentions: number;
  /** The user's agent runs going on it (one in the background, or in another tab). */
  runningRuns: number;
}

/** One document in the list: open link, snippet, last edit and role; inline rename; delete with a confirmation step. */
export function DocumentRow({
  document,
  onRename,
  onDelete,
}: {
  document: ListedDocument;
  onRename: (title: string) => void;
  onDelete: () => void;
}) {
  const { id, title, role } = document;
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const link = (
    <Link className="document-row-title" href={`/documents/${id}`}>
      {title}
    </Link>
  );

  return (
    <li className="document-row" data-testid="document-row">
      <div className="document-row-main">
        <div className="document-row-heading">
          {role === "viewer" || role === "commenter" ? (
            link
          ) : (
            <InlineRename title={title} onRename={onRename}>
              {link}
            </InlineRename>
          )}
        </div>
        <p className="document-row-snippet muted" data-testid="document-snippet">
          {document.snippet || "Empty document"}
        </p>
        <p className="document-row-meta muted">
          <span className="role-badge" data-testid="document-role">
            {ROLE_LABELS[role]}
          </span>
          <span data-testid="document-edited">
            Edited {formatUpdatedAt(document.updatedAt)}
            {document.lastEditedBy ? ` by ${document.lastEditedBy}` : ""}
          </span>
          <CommentBadge open={document.openThreads} mentions={document.openMentions} />
          {document.runningRuns > 0 ? (
            <span className="running-badge" data-testid="document-running">
              Coauthor is working
            </span>
          ) : null}
        </p>
      </div>
      {role === "owner" ? (
        <div className="document-row-actions">
          {confirmingDelete ? (
            <>
              <button
                type="button"
                className="button danger"
                aria-label={`Delete ${title} for good`}
                onClick={onDelete}
              >
                Delete
              </button>
              <button
                type="button"
                className="button"
                aria-label="Cancel delete"
                onClick={() => setConfirmingDelete(false)}
              >
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className="button"
              aria-label={`Delete ${title}`}
              onClick={() => setConfirmingDelete(true)}
            >
              Delete
            </button>
          )}
        </div>
      ) : null}
    </li>
  );
}
