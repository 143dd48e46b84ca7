"use client";

import Link from "next/link";
import { useState } from "react";
import "./sharing.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Formats a timestamp that may arrive as a Date or (over JSON) an ISO string. */
export function formatUpdatedAt(value: Date | string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : dateFormat.format(date);
}

interface DocumentRowProps {
  id: string;
  title: string;
  updatedAt: Date | string;
  /** The user's role; shared documents show it, and only the owner may delete. */
  role: "owner" | "editor" | "viewer";
  onRename: (title: string) => void;
  onDelete: () => void;
}

/** One document in the list: open link, inline rename, delete with a confirmation step. */
export function DocumentRow({ id, title, updatedAt, role, onRename, onDelete }: DocumentRowProps) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [draft, setDraft] = useState(title);

  const commitRename = () => {
    const next = draft.trim();
    if (next && next !== title) onRename(next);
    setMode("view");
  };

  return (
    <li className="document-row" data-testid="document-row">
      {mode === "rename" ? (
        <form
          className="document-row-main"
          onSubmit={(event) => {
            event.preventDefault();
            commitRename();
          }}
        >
          <input
            className="input"
            aria-label={`New title for ${title}`}
            value={draft}
            maxLength={200}
            // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this row.
            autoFocus
            onChange={(event) => setDraft(event.target.value)}
            onBlur={commitRename}
            onKeyDown={(event) => {
              if (event.key === "Escape") setMode("view");
            }}
          />
        </form>
      ) : (
        <Link className="document-row-main" href={`/documents/${id}`}>
          <span className="document-row-title">{title}</span>
          {role === "owner" ? null : (
            <span className="role-badge" data-testid="document-role">
              Shared · {role}
            </span>
          )}
          <span className="document-row-date muted">{formatUpdatedAt(updatedAt)}</span>
        </Link>
      )}
      <div className="document-row-actions">
        {mode === "confirm-delete" ? (
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
              onClick={() => setMode("view")}
            >
              Cancel
            </button>
          </>
        ) : (
          <>
            {role === "viewer" ? null : (
              <button
                type="button"
                className="button"
                aria-label={`Rename ${title}`}
                onClick={() => {
                  setDraft(title);
                  setMode("rename");
                }}
              >
                Rename
              </button>
            )}
            {role === "owner" ? (
              <button
                type="button"
                className="button"
                aria-label={`Delete ${title}`}
                onClick={() => setMode("confirm-delete")}
              >
                Delete
              </button>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}
