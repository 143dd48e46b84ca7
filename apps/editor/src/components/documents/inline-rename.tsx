"use client";

import { type ReactNode, useId, useRef, useState } from "react";

/**
 * Edit-in-place for a document's title: `children` (the title) and a Rename button, which turn into
 * a text field. Enter (or leaving the field) saves, Esc cancels; after Enter or Esc focus goes back
 * to the Rename button, so a keyboard user stays where they were.
 */
export function InlineRename({
  title,
  onRename,
  children,
}: {
  title: string;
  onRename: (title: string) => void;
  children: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);
  const button = useRef<HTMLButtonElement>(null);
  // Esc unmounts the field; a blur that follows must not save what was cancelled.
  const settled = useRef(false);
  const hintId = useId();

  const finish = (save: boolean, refocus: boolean) => {
    if (settled.current) return;
    settled.current = true;
    const next = draft.trim();
    if (save && next && next !== title) onRename(next);
    setEditing(false);
    // After the field is gone: the button renders again in its place. Not after a blur: focus
    // went where the user moved it.
    if (refocus) requestAnimationFrame(() => button.current?.focus());
  };

  if (!editing)
    return (
      <>
        {children}
        <button
          ref={button}
          type="button"
          className="button"
          aria-label={`Rename ${title}`}
          onClick={() => {
            settled.current = false;
            setDraft(title);
            setEditing(true);
          }}
        >
          Rename
        </button>
      </>
    );
  return (
    <form
      className="inline-rename"
      onSubmit={(event) => {
        event.preventDefault();
        finish(true, true);
      }}
    >
      <input
        className="input"
        data-testid="rename-input"
        aria-label={`New title for ${title}`}
        aria-describedby={hintId}
        value={draft}
        maxLength={200}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this document.
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => finish(true, false)}
        onKeyDown={(event) => {
          if (event.key !== "Escape") return;
          event.preventDefault();
          finish(false, true);
        }}
      />
      <span id={hintId} className="visually-hidden">
        Enter saves, Escape cancels
      </span>
    </form>
  );
}
